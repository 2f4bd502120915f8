// GET/POST /api/subject_sets: list and create.
import { collectionRoutes } from "@/lib/http/resource-routes";
import { subjectSets } from "@/lib/resources/subject-sets";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = collectionRoutes(subjectSets);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
