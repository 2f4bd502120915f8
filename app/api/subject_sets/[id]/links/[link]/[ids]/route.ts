// DELETE /api/subject_sets/<id>/links/<link>/<ids>: remove linked ids.
import { linkRoutes } from "@/lib/http/resource-routes";
import { subjectSets } from "@/lib/resources/subject-sets";

export const { DELETE } = linkRoutes(subjectSets);
