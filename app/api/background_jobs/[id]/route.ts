// GET /api/background_jobs/<id>: status, progress, total, error, and download_url of a finished export.
import { memberRoutes } from "@/lib/http/resource-routes";
import { backgroundJobs } from "@/lib/resources/background-jobs";

export const { GET } = memberRoutes(backgroundJobs);
