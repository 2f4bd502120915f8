// DELETE /api/subject_sets/<id>/links/<link>/<ids>: remove linked ids.
import { linkRoutes } from "@/lib/http/resource-routes";
import { subjectSets } from "@/lib/resources/subject-sets";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { DELETE } = linkRoutes(subjectSets);

export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowed(["DELETE"]);
