// GET /api/background_jobs: imports and exports of the projects the caller edits (filters project_id, kind, status).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { backgroundJobs } from "@/lib/resources/background-jobs";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET } = collectionRoutes(backgroundJobs);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
