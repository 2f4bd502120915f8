// GET/POST /api/subject_sets: list and create.
import { collectionRoutes } from "@/lib/http/resource-routes";
import { subjectSets } from "@/lib/resources/subject-sets";

export const { GET, POST } = collectionRoutes(subjectSets);
