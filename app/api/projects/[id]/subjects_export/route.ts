// POST /api/projects/<id>/subjects_export: start a CSV export of the project's subjects; GET: the latest.
import { SUBJECTS_EXPORT } from "@/lib/domain/export-csv";
import { exportRoutes } from "@/lib/handlers/export-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = exportRoutes(SUBJECTS_EXPORT, "projects");

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
