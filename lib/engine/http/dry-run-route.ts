// POST /engine/workflows/<id>/dry_run: a configuration being edited, run on the workflow's last N
// classifications (or pasted ones) without writing anything, beside the saved configuration's run on the
// same classifications (lib/engine/dry-run.ts).
//
// Body: {"workflow": {extractors_config, reducers_config, rules_config, rules_applied?}} validated as a save
// is (422 with the same messages), and either "last": N (1-500, the newest completed classifications) or
// "classifications": [...] (the shape POST /engine/classifications takes; workflow_id may be left out).
// Answer: {classifications, extracts, reductions, targets, skipped, warnings, saved: <the same for the saved
// configuration> | null, diff: [{topic, target_id, reductions, effects}] | null}.
import { z } from "zod";
import { pool } from "@/lib/db";
import { configWarnings, parseEngineWorkflowConfig } from "@/lib/engine/config";
import { dryRun, dryRunAnswer, type DryRunClassification } from "@/lib/engine/dry-run";
import { loadClassificationsData } from "@/lib/engine/run/classification-data";
import { engineTx } from "@/lib/engine/run/engine-tx";
import { loadEngineWorkflow } from "@/lib/engine/run/workflow-config";
import { groupAnnotations } from "@/lib/engine/types";
import { unprocessable } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/request";
import { parsePathId } from "@/lib/text/params";
import { json } from "@/lib/http/respond";
import { scalarText } from "@/lib/text/scalar-text";
import { engineRoute, requireWorkflowEditor, ZInboundClassification } from "./engine-routes";

const MAX = 500;
const ZBody = z.strictObject({
  workflow: z.record(z.string(), z.unknown()),
  last: z.number().int().min(1).max(MAX).optional(),
  classifications: z.array(z.unknown()).min(1).max(MAX).optional(),
});

/** The workflow's newest completed classifications as the engine sees them, read in a transaction that is rolled back (loading caches subject metadata). */
async function lastClassifications(workflowId: number, n: number): Promise<DryRunClassification[]> {
  const client = await pool().connect();
  try {
    await client.query("BEGIN");
    const { rows } = await client.query<{ id: number }>(
      `SELECT id FROM classifications WHERE workflow_id = $1 AND completed ORDER BY id DESC LIMIT $2`,
      [workflowId, n],
    );
    return await loadClassificationsData(
      engineTx(client),
      rows.map((r) => ({ id: r.id, workflowId })),
    );
  } finally {
    await client.query("ROLLBACK").catch(() => {});
    client.release();
  }
}

function pasted(workflowId: number, list: unknown[]): DryRunClassification[] {
  return list.map((raw, i) => {
    const parsed = ZInboundClassification.safeParse(
      raw && typeof raw === "object" && !Array.isArray(raw) ? { workflow_id: workflowId, ...raw } : raw,
    );
    if (!parsed.success)
      throw unprocessable(
        `classifications[${i}]: ${parsed.error.issues.map((x) => `${x.path.join(".") || "classification"}: ${x.message}`).join("; ")}`,
      );
    const c = parsed.data;
    const subjectId = c.subject_id ?? c.subject_ids![0];
    return {
      id: c.id,
      project_id: Number(c.project_id ?? 0),
      workflow_id: c.workflow_id,
      subject_id: subjectId,
      user_id: c.user_id ?? null,
      workflow_version: c.workflow_version ?? scalarText(c.metadata.workflow_version),
      annotations: groupAnnotations(c.annotations),
      metadata: c.metadata,
      subject: { id: subjectId, metadata: (c.subject?.metadata ?? {}) as Record<string, string>, created_at: null, updated_at: null },
      created_at: c.created_at ?? new Date(Date.UTC(2000, 0, 1, 0, 0, i)).toISOString(),
    };
  });
}

export const dryRunRoute = engineRoute(async ({ req, params, actor }) => {
  const workflowId = parsePathId(params.id, "workflows");
  await requireWorkflowEditor(pool(), actor, workflowId);
  const body = ZBody.parse(await readJsonBody(req));
  if ((body.last === undefined) === (body.classifications === undefined))
    throw unprocessable("give either last (a number of recent classifications) or classifications");
  const parsed = parseEngineWorkflowConfig({ ...body.workflow, id: workflowId });
  if (!parsed.ok) throw unprocessable(parsed.message);
  const classifications =
    body.last !== undefined ? await lastClassifications(workflowId, body.last) : pasted(workflowId, body.classifications!);
  const edited = dryRun(parsed.value, classifications);
  const savedConfig = await loadEngineWorkflow(pool(), workflowId, { fresh: true });
  const saved = savedConfig ? dryRun(savedConfig, classifications) : null;
  return json(dryRunAnswer(edited, saved, configWarnings(parsed.value)));
});
