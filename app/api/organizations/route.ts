// GET/POST /api/organizations: list (filters owner, search ranked by relevance, listed, display_name, slug, categories, tags, project_id) and create.
import { organizationCollectionRoutes } from "@/lib/domain/search-organizations";
import { organizations } from "@/lib/resources/organizations";

export const { GET, POST } = organizationCollectionRoutes(organizations);
