// POST /api/projects/<id>/subjects_export: start a CSV export of the project's subjects; GET: the latest.
import { exportRoutes, SUBJECTS_EXPORT } from "@/lib/domain/export-csv";

export const { GET, POST } = exportRoutes(SUBJECTS_EXPORT, "projects");
