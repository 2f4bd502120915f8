// GET /api/subjects (sort=queued with workflow_id serves the queue) and POST /api/subjects (create).
import { queuedSubjectsResponse } from "@/lib/handlers/queue-response";
import { apiRoute } from "@/lib/http/api-route";
import { collectionRoutes } from "@/lib/http/resource-routes";
import { declareScope } from "@/lib/http/route-scope";
import { subjects } from "@/lib/resources/subjects";
import { methodNotAllowed } from "@/lib/http/missing-routes";

const routes = collectionRoutes(subjects);
const list = routes.GET;
const queued = apiRoute({ scope: "none" }, queuedSubjectsResponse);
// Both answers are public reads (each checks its own scope, none).
export const GET = declareScope("none", (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) =>
  new URL(req.url).searchParams.get("sort") === "queued" ? queued(req, ctx) : list(req, ctx),
);
export const POST = routes.POST;

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
