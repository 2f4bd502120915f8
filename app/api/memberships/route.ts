// GET/POST /api/memberships: memberships in user groups; POST joins a group with its join token.
import { collectionRoutes } from "@/lib/http/resource-routes";
import { memberships } from "@/lib/resources/memberships";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = collectionRoutes(memberships);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
