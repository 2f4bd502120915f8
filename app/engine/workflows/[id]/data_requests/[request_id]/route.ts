// GET /engine/workflows/<id>/data_requests/<id>: one data request, with its download link once complete.
import { dataRequestMemberRoutes } from "@/lib/engine/http/data-requests";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET } = dataRequestMemberRoutes;

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
