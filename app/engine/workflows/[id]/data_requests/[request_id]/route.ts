// GET /engine/workflows/<id>/data_requests/<id>: one data request, with its download link once complete.
import { dataRequestMemberRoutes } from "@/lib/engine/http/data-requests";

export const { GET } = dataRequestMemberRoutes;
