// GET/PUT/DELETE /api/organizations/<id>/pages/<page id>: one page; edits and destroys need If-Match.
import { nestedMemberRoutes } from "@/lib/http/nested-routes";
import { organizationPages } from "@/lib/resources/organization-pages";

export const { GET, PUT, DELETE } = nestedMemberRoutes(organizationPages);
