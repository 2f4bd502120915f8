// POST /api/subject_sets/<id>/links/<link>: add linked ids.
import { linkRoutes } from "@/lib/http/resource-routes";
import { subjectSets } from "@/lib/resources/subject-sets";

export const { POST } = linkRoutes(subjectSets);
