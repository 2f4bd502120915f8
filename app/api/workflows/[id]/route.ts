// GET/PUT/DELETE /api/workflows/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { workflows } from "@/lib/resources/workflows";

export const { GET, PUT, DELETE } = memberRoutes(workflows);
