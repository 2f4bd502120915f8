// GET /counts/classifications/user_groups/<id>: a user group's members' counts (together, and per member as its stats_visibility allows).
import { userGroupCountsRoute } from "@/lib/handlers/counts-route";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = userGroupCountsRoute;

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
