// GET /counts/classifications: public classification counts (project_id | workflow_id, dates, period).
import { countsRoute } from "@/lib/handlers/counts-route";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = countsRoute;
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
