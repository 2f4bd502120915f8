// GET/PUT/DELETE /api/tutorials/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { tutorials } from "@/lib/resources/tutorials";

export const { GET, PUT, DELETE } = memberRoutes(tutorials);
