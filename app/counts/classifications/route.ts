// GET /counts/classifications: public classification counts (project_id | workflow_id, dates, period).
import { countsRoute } from "@/lib/counts/counts-route";

export const GET = countsRoute;
