// GET/PUT/DELETE /api/subject_sets/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { subjectSets } from "@/lib/resources/subject-sets";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(subjectSets);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
