// GET/POST /api/organizations/<id>/pages: the organization's pages (filters url_key, language; default language en) and create.
import { nestedCollectionRoutes } from "@/lib/http/nested-routes";
import { organizationPages } from "@/lib/resources/organization-pages";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = nestedCollectionRoutes(organizationPages);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
