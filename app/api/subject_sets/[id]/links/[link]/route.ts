// POST /api/subject_sets/<id>/links/<link>: add linked ids.
import { linkRoutes } from "@/lib/http/resource-routes";
import { subjectSets } from "@/lib/resources/subject-sets";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { POST } = linkRoutes(subjectSets);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
