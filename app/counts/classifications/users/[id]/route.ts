// GET /counts/classifications/users/<id>: a volunteer's own counts and time spent (that user or an admin).
import { userCountsRoute } from "@/lib/handlers/counts-route";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = userCountsRoute;

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
