// GET/POST /api/memberships: memberships in user groups; POST joins a group with its join token.
import { collectionRoutes } from "@/lib/http/resource-routes";
import { memberships } from "@/lib/resources/memberships";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = collectionRoutes(memberships);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
