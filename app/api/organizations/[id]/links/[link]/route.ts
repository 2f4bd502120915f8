// POST /api/organizations/<id>/links/projects {"projects": [ids]}: link projects the caller edits.
import { linkRoutes } from "@/lib/http/resource-routes";
import { organizations } from "@/lib/resources/organizations";

export const { POST } = linkRoutes(organizations);
