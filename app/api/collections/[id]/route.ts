// GET/PUT/DELETE /api/collections/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { collections } from "@/lib/resources/collections";

export const { GET, PUT, DELETE } = memberRoutes(collections);
