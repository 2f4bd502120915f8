// GET/PUT/DELETE /api/collections/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { collections } from "@/lib/resources/collections";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(collections);

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
