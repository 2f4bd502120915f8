import type { EngineTx } from "./engine-tx";
import { extract, ExtractorError, minimumVersionSkip } from "@/lib/engine/extractors";
import type { TExtractorConfig } from "@/lib/engine/extractors/schemas";
import type { ClassificationData } from "@/lib/engine/types";
import { type ClassificationRef, loadClassificationsData } from "./classification-data";
import { type NewExtract, upsertExtracts } from "./engine-data";
import { EVENTS } from "./events";
import type { Emit, TxRunner } from "./stage";
import { loadEngineWorkflow, type EngineWorkflow } from "./workflow-config";
import { noteExtracted } from "./timeline";

/** Which reductions a new extract of this classification touches. */
export function emitExtractsChanged(emit: Emit, workflow: EngineWorkflow, c: { subject_id: number; user_id: number | null }) {
  const reducers = Object.values(workflow.reducers_config ?? {});
  if (reducers.some((r) => (r.topic ?? "reduce_by_subject") === "reduce_by_subject") && c.subject_id) {
    emit({ name: EVENTS.extractsChanged, data: { workflow_id: workflow.id, topic: "subject", target_id: c.subject_id } });
  }
  if (reducers.some((r) => r.topic === "reduce_by_user") && c.user_id) {
    emit({ name: EVENTS.extractsChanged, data: { workflow_id: workflow.id, topic: "user", target_id: c.user_id } });
  }
}

/**
 * Stage 1, classification received: runs the workflow's extractors and upserts their extracts. Workflows
 * the engine does not know, halted and paused ones are skipped; external extractors run as their own
 * events so a slow service holds up nothing else.
 */
export async function extractClassification(tx: TxRunner, ref: ClassificationRef): Promise<void> {
  await tx((client, emit) => extractClassifications(client, emit, [ref]));
}

/** Stage 1 for many classifications at once, in a fixed number of queries (the built-in queue's batches). */
export async function extractClassifications(client: EngineTx, emit: Emit, refs: ClassificationRef[]): Promise<void> {
  const found = await loadClassificationsData(client, refs);
  const extracts: NewExtract[] = [];
  const changed: { workflow: EngineWorkflow; c: ClassificationData }[] = [];
  for (const c of found) {
    const workflow = await loadEngineWorkflow(client, c.workflow_id);
    if (workflow?.status !== "active" || !c.subject_id) continue;
    let stored = 0;
    for (const [key, config] of Object.entries(workflow.extractors_config ?? {})) {
      if (config.type === "external") {
        // Older workflow versions are skipped before any call is made.
        if (minimumVersionSkip(config, c)) continue;
        emit({ name: EVENTS.externalExtractRequested, data: { classification_id: c.id, workflow_id: c.workflow_id, extractor_key: key } });
        continue;
      }
      const data = runExtractor(config, c, key);
      if (data === undefined) continue;
      extracts.push({
        workflowId: c.workflow_id,
        subjectId: c.subject_id,
        userId: c.user_id,
        classificationId: c.id,
        classificationAt: c.created_at,
        extractorKey: key,
        data,
      });
      stored++;
    }
    if (stored) changed.push({ workflow, c });
  }
  await upsertExtracts(client, extracts);
  for (const { workflow, c } of changed) {
    emitExtractsChanged(emit, workflow, c);
    noteExtracted(client, c.workflow_id, c.id, c.subject_id);
  }
}

/** An extractor's data, or undefined when it yields no extract (rejected, older workflow version, or an error it reports). */
function runExtractor(config: TExtractorConfig, c: ClassificationData, key: string): unknown {
  try {
    const out = extract(config, c);
    return out.kind === "data" ? out.data : undefined;
  } catch (err) {
    if (err instanceof ExtractorError) {
      // if_missing: error. The classification lacks what the extractor needs: nothing to extract, and
      // retrying cannot help, so it is logged rather than retried.
      console.warn(`[engine] extractor '${key}' on classification ${c.id}: ${err.message}`);
      return undefined;
    }
    throw err;
  }
}
