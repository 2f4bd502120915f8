// GET /api/background_jobs/<id>: status, progress, total, error, and download_url of a finished export.
import { memberRoutes } from "@/lib/http/resource-routes";
import { backgroundJobs } from "@/lib/resources/background-jobs";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET } = memberRoutes(backgroundJobs);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
