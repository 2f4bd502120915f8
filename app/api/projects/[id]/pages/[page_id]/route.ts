// GET/PUT/DELETE /api/projects/<id>/pages/<page id>: one page; edits and destroys need If-Match.
import { nestedMemberRoutes } from "@/lib/http/nested-routes";
import { projectPages } from "@/lib/resources/project-pages";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = nestedMemberRoutes(projectPages);

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
