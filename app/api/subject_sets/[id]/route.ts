// GET/PUT/DELETE /api/subject_sets/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { subjectSets } from "@/lib/resources/subject-sets";

export const { GET, PUT, DELETE } = memberRoutes(subjectSets);
