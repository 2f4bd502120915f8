// GET/POST /api/user_groups: groups of users (public ones to all, private ones to their members); create makes you its group_admin.
import { collectionRoutes } from "@/lib/http/resource-routes";
import { userGroups } from "@/lib/resources/user-groups";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = collectionRoutes(userGroups);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
