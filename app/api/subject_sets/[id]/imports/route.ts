// POST /api/subject_sets/<id>/imports: a CSV manifest (text/csv body) imported in the background, one subject per row.
import { startSubjectImport } from "@/lib/domain/import-subjects";

export const POST = startSubjectImport;
