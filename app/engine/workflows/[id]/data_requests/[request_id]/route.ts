// GET /engine/workflows/<id>/data_requests/<id>: one data request, with its download link once complete.
import { dataRequestMemberRoutes } from "@/lib/engine/http/data-requests";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET } = dataRequestMemberRoutes;

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
