// GET/POST /api/organizations/<id>/pages: the organization's pages (filters url_key, language; default language en) and create.
import { nestedCollectionRoutes } from "@/lib/http/nested-routes";
import { organizationPages } from "@/lib/resources/organization-pages";

export const { GET, POST } = nestedCollectionRoutes(organizationPages);
