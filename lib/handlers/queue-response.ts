import { resolveCaller } from "@/lib/auth/actor";
import { apiRoute, type ApiContext } from "@/lib/http/api-route";
import { unprocessable } from "@/lib/errors";
import { linkTemplates, pageMeta } from "@/lib/http/jsonapi";
import { parseCountParam, parseIdValue } from "@/lib/text/params";
import { json } from "@/lib/http/respond";
import { serializeQueuedSubject, subjects } from "@/lib/resources/subjects";
import { queueSubjects } from "@/lib/domain/subject-queue";

const QUEUE_PAGE_SIZE = 10;

/** GET /api/subjects/queued?workflow_id= (and /api/subjects?sort=queued): the volunteer's next subjects. */
export async function queuedSubjectsResponse(ctx: ApiContext): Promise<Response> {
  const raw = ctx.url.searchParams.get("workflow_id");
  if (!raw) throw unprocessable("workflow_id is required");
  const workflowId = parseIdValue(raw, "workflow_id");
  const limit = parseCountParam(ctx.url.searchParams.get("page_size"), "page_size", { fallback: QUEUE_PAGE_SIZE, clampAbove: 100 });
  const setRaw = ctx.url.searchParams.get("subject_set_id");
  // A bearer token's grant is checked in the queue's first query (resolveCaller), not by a query of its own.
  const queued = await queueSubjects(await resolveCaller(ctx.req), workflowId, {
    limit,
    subjectSetId: setRaw ? parseIdValue(setRaw, "subject_set_id") : undefined,
  });
  return json({
    subjects: queued.map(serializeQueuedSubject),
    links: linkTemplates(subjects as never),
    meta: pageMeta("subjects", ctx.url, { page: 1, pageSize: limit }, queued.length, []),
  });
}

export const queuedRoute = apiRoute({ scope: "none" }, queuedSubjectsResponse);
