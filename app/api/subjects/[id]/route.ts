// GET/PUT/DELETE /api/subjects/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { subjects } from "@/lib/resources/subjects";

export const { GET, PUT, DELETE } = memberRoutes(subjects);
