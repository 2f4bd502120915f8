import { z } from "zod";
import type { BackgroundJob } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db";
import { startOrJoinBackgroundJob } from "@/lib/domain/background-jobs";
import { ENGINE_EXPORTS } from "@/lib/domain/export-csv";
import { notFound, unprocessable } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/request";
import { parsePathId } from "@/lib/text/params";
import { json } from "@/lib/http/respond";
import { signedUrl } from "@/lib/storage/signed-urls";
import { engineRoute, requireEngineWorkflow } from "./engine-routes";

// The established engine's data requests: a workflow's extracts, subject reductions or user reductions as a
// CSV, built in the background (lib/domain/export-csv.ts), then downloaded through a signed link.
//   POST /engine/workflows/<id>/data_requests {"data_request": {"requested_data", "subgroup"?, "user_id"?}}
//   GET  /engine/workflows/<id>/data_requests (newest first), GET .../data_requests/<id>
// Answers `{id, exportable_id, exportable_type, user_id, subgroup, status, requested_data, url, updated_at}`;
// status is pending, processing, complete or failed; url is set once complete (valid UPLOAD_URL_TTL). A
// request while the same one is pending or processing answers that one (200) rather than queueing another.

type RequestedData = keyof typeof ENGINE_EXPORTS;
const KIND_TO_DATA = Object.fromEntries(Object.entries(ENGINE_EXPORTS).map(([data, kind]) => [kind, data])) as Record<
  string,
  RequestedData
>;
const STATUS: Record<string, string> = { pending: "pending", running: "processing", completed: "complete", failed: "failed" };

const ZDataRequest = z.strictObject({
  requested_data: z.enum(Object.keys(ENGINE_EXPORTS) as [RequestedData, ...RequestedData[]], {
    error: `requested_data must be one of ${Object.keys(ENGINE_EXPORTS).join(", ")}`,
  }),
  subgroup: z.string().min(1).max(200).nullish(),
  // (a PostgreSQL integer: a larger one made the export job fail in its query)
  user_id: z
    .union([
      z.number().int().positive(),
      z
        .string()
        .regex(/^\d{1,10}$/)
        .transform(Number),
    ])
    .refine((n) => n <= 2 ** 31 - 1, "must be at most 2147483647")
    .nullish(),
});

async function serialize(job: BackgroundJob) {
  const params = job.params as { workflow_id: number; subgroup?: string | null; user_id?: number | null };
  return {
    id: job.id,
    exportable_id: String(params.workflow_id),
    exportable_type: "Workflow",
    user_id: params.user_id ?? null,
    subgroup: params.subgroup ?? null,
    status: STATUS[job.status] ?? job.status,
    requested_data: KIND_TO_DATA[job.kind],
    url: job.status === "completed" && job.resultPath ? await signedUrl("GET", job.resultPath) : null,
    error: job.error,
    updated_at: job.updatedAt.toISOString(),
  };
}

function requestsOf(workflowId: number) {
  return { kind: { in: Object.values(ENGINE_EXPORTS) as string[] }, params: { path: ["workflow_id"], equals: workflowId } };
}

export const dataRequestCollectionRoutes = {
  GET: engineRoute(async ({ params, actor }) => {
    const workflow = await requireEngineWorkflow(actor, parsePathId(params.id, "workflows"));
    const jobs = await db().backgroundJob.findMany({ where: requestsOf(workflow.id), orderBy: { id: "desc" }, take: 100 });
    return json(await Promise.all(jobs.map(serialize)));
  }),
  POST: engineRoute(async ({ req, params, actor }) => {
    const workflow = await requireEngineWorkflow(actor, parsePathId(params.id, "workflows"));
    const body = await readJsonBody(req);
    const extra = Object.keys(body).filter((k) => k !== "data_request");
    if (extra.length || !body.data_request)
      throw unprocessable(`Body must be {"data_request": {"requested_data", "subgroup"?, "user_id"?}}`);
    const input = ZDataRequest.parse(body.data_request);
    if (input.user_id != null && input.requested_data === "subject_reductions")
      throw unprocessable("user_id: subject reductions are not by user");
    if (input.subgroup != null && input.requested_data === "extracts") throw unprocessable("subgroup: extracts have no subgroup");
    if (workflow.project_id === null) throw unprocessable("Data requests are made for workflows of a project");
    const target = { workflow_id: workflow.id, subgroup: input.subgroup ?? null, user_id: input.user_id ?? null };
    // A request while the same one is pending or running answers that one (200), as the team's exports do.
    const { job, created } = await db().$transaction((tx) =>
      startOrJoinBackgroundJob(tx, actor, ENGINE_EXPORTS[input.requested_data], workflow.project_id!, target),
    );
    return json(await serialize(job), created ? 201 : 200);
  }),
};

export const dataRequestMemberRoutes = {
  GET: engineRoute(async ({ params, actor }) => {
    const workflow = await requireEngineWorkflow(actor, parsePathId(params.id, "workflows"));
    const job = await db().backgroundJob.findFirst({
      where: { id: parsePathId(params.request_id, "data_requests"), ...requestsOf(workflow.id) },
    });
    if (!job) throw notFound(`Couldn't find DataRequest with 'id'=${params.request_id}`);
    return json(await serialize(job));
  }),
};
