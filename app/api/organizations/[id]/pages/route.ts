// GET/POST /api/organizations/<id>/pages: the organization's pages (filters url_key, language; default language en) and create.
import { nestedCollectionRoutes } from "@/lib/http/nested-routes";
import { organizationPages } from "@/lib/resources/organization-pages";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = nestedCollectionRoutes(organizationPages);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
