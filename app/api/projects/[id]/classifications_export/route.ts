// POST /api/projects/<id>/classifications_export: start a CSV export of the project's classifications; GET: the latest.
import { CLASSIFICATIONS_EXPORT, exportRoutes } from "@/lib/domain/export-csv";

export const { GET, POST } = exportRoutes(CLASSIFICATIONS_EXPORT, "projects");
