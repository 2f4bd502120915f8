// GET /api/admin_actions: what site admins did, newest first (filters target_type, target_id, admin_id); admins only.
import { collectionRoutes } from "@/lib/http/resource-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";
import { adminActions } from "@/lib/resources/admin-actions";

export const { GET } = collectionRoutes(adminActions);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
