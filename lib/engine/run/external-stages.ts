import { externalReducerRequest, newExtractsFor, selectExtracts, wireExtract } from "@/lib/engine/reducers";
import { type ClassificationRef, loadClassificationData } from "./classification-data";
import { loadReductions, saveReduction, type Topic, upsertExtract } from "./engine-data";
import { emitExtractsChanged } from "./extract-classification";
import { EVENTS } from "./events";
import { postExternal } from "./external-call";
import { loadExtracts } from "./reduce-target";
import type { TxRunner } from "./stage";
import { loadEngineWorkflow } from "./workflow-config";

// Stages that call outside services: the HTTP call happens outside any transaction; its answer is then
// stored in one. A failed call throws, so the queue retries it with backoff and keeps the last error.

/** An external extractor: POSTs the classification data; the answer's JSON is the extract (204: no extract). */
export async function externalExtract(tx: TxRunner, ref: ClassificationRef, extractorKey: string): Promise<void> {
  const prepared = await tx(async (client) => {
    const c = await loadClassificationData(client, ref);
    if (!c) return null;
    const workflow = await loadEngineWorkflow(client, c.workflow_id);
    const config = workflow?.extractors_config?.[extractorKey];
    if (workflow?.status !== "active" || config?.type !== "external") return null;
    return { c, workflow, url: config.url as string };
  });
  if (!prepared) return;
  const { c, workflow, url } = prepared;
  const { created_at, ...body } = c;
  const data = await postExternal(url, body);
  if (data === null) return;
  await tx(async (client, emit) => {
    await upsertExtract(client, {
      workflowId: c.workflow_id,
      subjectId: c.subject_id,
      userId: c.user_id,
      classificationId: c.id,
      classificationAt: created_at,
      extractorKey,
      data,
    });
    emitExtractsChanged(emit, workflow, c);
  });
}

/**
 * An external reducer (POSTs the filtered extracts of each subgroup; the answer is stored as the reduction),
 * or a queue reducer (delivers extracts not delivered before to its queue URL as
 * `{queue_name, messages: [extract...]}`, recording them as incorporated so none is sent twice).
 */
export async function externalReduce(tx: TxRunner, workflowId: number, topic: Topic, targetId: number, reducerKey: string): Promise<void> {
  const prepared = await tx(async (client) => {
    const workflow = await loadEngineWorkflow(client, workflowId);
    const config = workflow?.reducers_config?.[reducerKey];
    if (!workflow || workflow.status === "halted" || !config) return null;
    const { extracts, metadata } = await loadExtracts(client, topic, workflowId, targetId);
    const groups = selectExtracts(config, extracts, metadata);
    const existing = new Map((await loadReductions(client, topic, workflowId, targetId, reducerKey)).map((r) => [r.subgroup, r]));
    const incorporated = new Map<string, Set<number>>();
    for (const [subgroup, r] of existing) {
      const { rows } = await client.query<{ extract_id: number }>(
        `SELECT extract_id FROM reduction_extracts WHERE reduction_kind = $1 AND reduction_id = $2`,
        [topic, r.id],
      );
      incorporated.set(subgroup, new Set(rows.map((x) => x.extract_id)));
    }
    return { config, groups, existing, incorporated };
  });
  if (!prepared) return;
  const { config, groups, existing, incorporated } = prepared;
  for (const [subgroup, group] of groups) {
    if (config.type === "queue") {
      const fresh = newExtractsFor(group, incorporated.get(subgroup) ?? new Set());
      if (!fresh.length) continue;
      await postExternal(config.queue_url, { queue_name: config.queue_name, messages: fresh.map(wireExtract) });
      await tx(async (client) => {
        const previous = existing.get(subgroup);
        const delivered = Number((previous?.data as { delivered?: number } | null)?.delivered ?? 0) + fresh.length;
        const id = await saveReduction(client, topic, { workflowId, targetId, reducerKey, subgroup, data: { delivered }, store: null });
        await client.query(
          `INSERT INTO reduction_extracts (reduction_kind, reduction_id, extract_id) SELECT $1, $2, e FROM unnest($3::int[]) AS e ON CONFLICT DO NOTHING`,
          [topic, id, fresh.map((e) => e.id)],
        );
      });
      continue;
    }
    const request = externalReducerRequest(config as never, group, targetId);
    const data = await postExternal(request.url, { ...request.body, workflow_id: workflowId, reducer_key: reducerKey, subgroup });
    if (data === null || typeof data !== "object") continue;
    await tx(async (client, emit) => {
      await saveReduction(client, topic, { workflowId, targetId, reducerKey, subgroup, data, store: null });
      emit({ name: EVENTS.reductionsChanged, data: { workflow_id: workflowId, topic, target_id: targetId } });
    });
  }
}
