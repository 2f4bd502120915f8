// POST /api/projects/<id>/workflows_export: start a CSV export of the project's workflows; GET: the latest.
import { WORKFLOWS_EXPORT } from "@/lib/domain/export-csv";
import { exportRoutes } from "@/lib/handlers/export-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = exportRoutes(WORKFLOWS_EXPORT, "projects");

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
