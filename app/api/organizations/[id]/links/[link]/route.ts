// POST /api/organizations/<id>/links/projects {"projects": [ids]}: link projects the caller edits.
import { linkRoutes } from "@/lib/http/resource-routes";
import { organizations } from "@/lib/resources/organizations";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { POST } = linkRoutes(organizations);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
