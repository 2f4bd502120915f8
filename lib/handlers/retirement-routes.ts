import { z } from "zod";
import { withTransaction } from "@/lib/db/sql";
import { apiRoute } from "@/lib/http/api-route";
import { forbidden, unauthorized, unprocessable } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/request";
import { parseIdValue, parsePathId } from "@/lib/text/params";
import { loadWorkflowForActor } from "@/lib/domain/load-workflow";
import { parseRetirementReason, retireSubjects, unretireSubjects } from "@/lib/domain/retire-subjects";

const ZId = z.union([z.string(), z.number()]);
const ZBody = z.strictObject({
  workflow_id: ZId.optional(),
  subject_id: ZId.optional(),
  subject_ids: z.array(ZId).max(10_000).optional(),
  retirement_reason: z.string().optional(),
  // The official clients wrap nothing here, but some scripts send the envelope key.
  admin: z.boolean().optional(),
});

/**
 * Retire or unretire subjects of a workflow: POST /api/workflows/<id>/retired_subjects,
 * POST /api/workflows/<id>/unretire_subjects, and POST /api/subjects/retire (workflow_id in the body,
 * the call the decision engine makes). Project editors only; answers 204.
 */
export function retirementRoute(action: "retire" | "unretire", workflowFrom: "path" | "body") {
  return apiRoute({ scope: "project" }, async (ctx) => {
    const actor = await ctx.actor();
    if (!actor.user) throw unauthorized("You must be signed in to do that");
    const body = ZBody.parse(await readJsonBody(ctx.req));
    const workflowId = workflowFrom === "path" ? parsePathId(ctx.params.id, "workflows") : parseIdValue(body.workflow_id, "workflow_id");
    const ids = [...(body.subject_id !== undefined ? [body.subject_id] : []), ...(body.subject_ids ?? [])].map((v) =>
      parseIdValue(v, "subject_ids"),
    );
    if (!ids.length) throw unprocessable("subject_id or subject_ids is required");
    const reason = action === "retire" ? parseRetirementReason(body.retirement_reason) : null;
    await withTransaction(async (client) => {
      const workflow = await loadWorkflowForActor(client, workflowId, actor);
      if (!workflow.canEdit) throw forbidden("Only the project's owner and collaborators may retire subjects");
      const { rows } = await client.query(
        `SELECT count(DISTINCT sms.subject_id)::int AS n FROM workflow_subject_sets wss JOIN set_member_subjects sms ON sms.subject_set_id = wss.subject_set_id
         WHERE wss.workflow_id = $1 AND sms.subject_id = ANY($2::int[])`,
        [workflowId, ids],
      );
      if (rows[0].n !== new Set(ids).size) throw unprocessable("subject ids must be subjects of the workflow's subject sets");
      if (reason) await retireSubjects(client, workflowId, ids, reason);
      else await unretireSubjects(client, workflowId, ids);
    });
    return new Response(null, { status: 204 });
  });
}
