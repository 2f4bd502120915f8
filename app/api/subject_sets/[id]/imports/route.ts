// POST /api/subject_sets/<id>/imports: a CSV manifest (text/csv body) imported in the background, one subject per row.
import { startSubjectImport } from "@/lib/handlers/subject-import-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const POST = startSubjectImport;

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
