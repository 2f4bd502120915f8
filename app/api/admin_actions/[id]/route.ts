// GET /api/admin_actions/<id>: one thing a site admin did; admins only.
import { memberRoutes } from "@/lib/http/resource-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";
import { adminActions } from "@/lib/resources/admin-actions";

export const { GET } = memberRoutes(adminActions);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
