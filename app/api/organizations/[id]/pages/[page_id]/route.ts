// GET/PUT/DELETE /api/organizations/<id>/pages/<page id>: one page; edits and destroys need If-Match.
import { nestedMemberRoutes } from "@/lib/http/nested-routes";
import { organizationPages } from "@/lib/resources/organization-pages";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = nestedMemberRoutes(organizationPages);

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
