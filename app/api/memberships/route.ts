// GET/POST /api/memberships: memberships in user groups; POST joins a group with its join token.
import { collectionRoutes } from "@/lib/http/resource-routes";
import { memberships } from "@/lib/resources/memberships";

export const { GET, POST } = collectionRoutes(memberships);
