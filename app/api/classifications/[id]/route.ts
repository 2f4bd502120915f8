// GET/PUT/DELETE /api/classifications/<id> (PUT and DELETE only while incomplete).
import { memberRoutes } from "@/lib/http/resource-routes";
import { classifications } from "@/lib/resources/classifications";

export const { GET, PUT, DELETE } = memberRoutes(classifications);
