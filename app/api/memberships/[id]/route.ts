// GET/PUT/DELETE /api/memberships/<id>: one membership (state, roles); DELETE makes it inactive.
import { memberRoutes } from "@/lib/http/resource-routes";
import { memberships } from "@/lib/resources/memberships";

export const { GET, PUT, DELETE } = memberRoutes(memberships);
