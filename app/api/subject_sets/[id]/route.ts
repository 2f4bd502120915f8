// GET/PUT/DELETE /api/subject_sets/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { subjectSets } from "@/lib/resources/subject-sets";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(subjectSets);

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
