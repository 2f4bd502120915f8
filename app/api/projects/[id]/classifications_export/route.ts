// POST /api/projects/<id>/classifications_export: start a CSV export of the project's classifications; GET: the latest.
import { CLASSIFICATIONS_EXPORT } from "@/lib/domain/export-csv";
import { exportRoutes } from "@/lib/handlers/export-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = exportRoutes(CLASSIFICATIONS_EXPORT, "projects");

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
