// GET/PUT/DELETE /api/memberships/<id>: one membership (state, roles); DELETE makes it inactive.
import { memberRoutes } from "@/lib/http/resource-routes";
import { memberships } from "@/lib/resources/memberships";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(memberships);

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
