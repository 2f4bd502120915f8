// GET/POST /api/organizations: list (filters owner, search ranked by relevance, listed, display_name, slug, categories, tags, project_id) and create.
import { organizationCollectionRoutes } from "@/lib/handlers/organization-search-routes";
import { organizations } from "@/lib/resources/organizations";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = organizationCollectionRoutes(organizations);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
