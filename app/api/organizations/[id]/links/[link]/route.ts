// POST /api/organizations/<id>/links/projects {"projects": [ids]}: link projects the caller edits.
import { linkRoutes } from "@/lib/http/resource-routes";
import { organizations } from "@/lib/resources/organizations";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { POST } = linkRoutes(organizations);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
