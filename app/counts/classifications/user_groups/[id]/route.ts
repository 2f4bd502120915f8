// GET /counts/classifications/user_groups/<id>: a user group's members' counts (together, and per member as its stats_visibility allows).
import { userGroupCountsRoute } from "@/lib/handlers/counts-route";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = userGroupCountsRoute;

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
