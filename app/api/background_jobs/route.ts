// GET /api/background_jobs: imports and exports of the projects the caller edits (filters project_id, kind, status).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { backgroundJobs } from "@/lib/resources/background-jobs";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET } = collectionRoutes(backgroundJobs);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
