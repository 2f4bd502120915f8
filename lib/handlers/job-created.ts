import type { BackgroundJob } from "@/lib/generated/prisma/client";
import type { ApiContext } from "@/lib/http/api-route";
import { showResponse } from "@/lib/http/resource-routes";
import { backgroundJobs } from "@/lib/resources/background-jobs";

/** The 201 answer to a request that started a job. */
export async function jobCreatedResponse(ctx: ApiContext, job: BackgroundJob): Promise<Response> {
  return showResponse(backgroundJobs, job, ctx, 201);
}
