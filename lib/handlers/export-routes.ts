import { z } from "zod";
import { db } from "@/lib/db";
import type { ExportKind, Target } from "@/lib/domain/export-csv";
import type { BackgroundJob } from "@/lib/generated/prisma/client";
import { notFound, unauthorized } from "@/lib/errors";
import { type ApiContext, apiRoute } from "@/lib/http/api-route";
import { parseJsonText, readBodyText } from "@/lib/http/request";
import { JSONAPI_TYPE, json as jsonResponse } from "@/lib/http/respond";
import { projectReadScope } from "@/lib/policies/project-policy";
import { requireEditableProject } from "@/lib/policies/require-editable-project";
import { presentBackgroundJob, serializeExportMedium } from "@/lib/resources/background-jobs";
import { parsePathId } from "@/lib/text/params";
import { startOrJoinBackgroundJob } from "@/lib/domain/background-jobs";

// The routes of CSV exports (the work itself is lib/domain/export-csv.ts): POST starts an export's job, or
// answers the one already running; GET answers the latest.

/** The project (and target) of an export request: visible (404) and edited by the caller (403). */
async function exportTarget(ctx: ApiContext, on: "projects" | "workflows"): Promise<{ projectId: number; target: Target }> {
  const actor = await ctx.actor();
  if (!actor.user) throw unauthorized("You must be signed in to do that");
  const id = parsePathId(ctx.params.id, on);
  return db().$transaction(async (tx) => {
    if (on === "projects") return { projectId: await requireEditableProject(tx, actor, id, "project"), target: { project_id: id } };
    const workflow = await tx.workflow.findFirst({ where: { id, project: projectReadScope(actor) }, select: { projectId: true } });
    if (!workflow) throw notFound(`Could not find workflows with id='${id}'`);
    return { projectId: await requireEditableProject(tx, actor, workflow.projectId, "project"), target: { workflow_id: id } };
  });
}

const sameTarget = (target: Target) => ({ params: { equals: target } });

/**
 * An export as the established platform answers it: a `media` record of the CSV (`src` the signed
 * download link once ready, `metadata.state` creating, ready or failed), which the official clients poll
 * and download (panoptes_client's generate_export / wait_export / get_export). The background job behind
 * it is linked and included (`linked.background_jobs`), with its progress.
 */
async function exportResponse(
  ctx: ApiContext,
  kind: ExportKind,
  on: "projects" | "workflows",
  job: BackgroundJob,
  status: number,
): Promise<Response> {
  const jobRecord = await presentBackgroundJob(job);
  const medium = serializeExportMedium(on, parsePathId(ctx.params.id, on), kind, job, jobRecord.download_url);
  return jsonResponse(
    {
      media: [medium],
      links: { "media.linked": { href: "/{media.linked.type}/{media.linked.id}", type: "linked" } },
      linked: { background_jobs: [jobRecord] },
    },
    status,
    { ETag: `W/"export-${job.id}-${job.updatedAt.getTime()}"` },
    JSONAPI_TYPE,
  );
}

// The body the official clients send to start one ({"media": {"content_type": "text/csv"}}); optional.
const ZStartExport = z.strictObject({
  media: z.strictObject({
    content_type: z.literal("text/csv", "media.content_type must be text/csv").optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
});

/** GET and POST /api/<projects|workflows>/<id>/<kind>: the latest export, or start one. */
export function exportRoutes(kind: ExportKind, on: "projects" | "workflows") {
  return {
    GET: apiRoute({ scope: "project" }, async (ctx) => {
      const { projectId, target } = await exportTarget(ctx, on);
      const job = await db().backgroundJob.findFirst({ where: { kind, projectId, ...sameTarget(target) }, orderBy: { id: "desc" } });
      if (!job) throw notFound(`No ${kind} has been requested for this ${on.slice(0, -1)}`);
      return exportResponse(ctx, kind, on, job, 200);
    }),
    POST: apiRoute({ scope: "project" }, async (ctx) => {
      const { projectId, target } = await exportTarget(ctx, on);
      const text = await readBodyText(ctx.req);
      if (text.trim() && text.trim() !== "{}") ZStartExport.parse(parseJsonText(text));
      const actor = await ctx.actor();
      // One export of a kind per target at a time: a request while one runs answers that one.
      const { job, created } = await db().$transaction((tx) => startOrJoinBackgroundJob(tx, actor, kind, projectId, target));
      return exportResponse(ctx, kind, on, job, created ? 201 : 200);
    }),
  };
}
