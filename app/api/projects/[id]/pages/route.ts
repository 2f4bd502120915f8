// GET/POST /api/projects/<id>/pages: the project's pages (filters url_key, language; default language en) and create.
import { nestedCollectionRoutes } from "@/lib/http/nested-routes";
import { projectPages } from "@/lib/resources/project-pages";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = nestedCollectionRoutes(projectPages);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
