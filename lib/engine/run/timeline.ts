import { metrics } from "@/lib/log/metrics";
import type { EngineTx, PipelineTimeline } from "./engine-tx";

// The pipeline's latencies, for the metrics: from a classification's create (when its engine inbox row
// was written, in the create's transaction) to the commit of its extracts, and to the commit of the
// retirement it completed. An inbox consumer's transaction opens a timeline with the rows it took; the
// stages note what they extracted and retired on it; after the commit the latencies are observed (a
// transaction that rolls back observes nothing). Work that runs as jobs of its own (a batch that failed,
// Inngest) is not timed.

/** Opens the timeline of a consumer's transaction (its EngineTx holds it) over the inbox rows it took. */
export function openTimeline(client: EngineTx, taken: { id: number; workflowId: number; handedAt: number }[]): PipelineTimeline {
  const t: PipelineTimeline = {
    handedAt: new Map(taken.map((r) => [`${r.workflowId}:${r.id}`, r.handedAt])),
    extracted: [],
    newestBySubject: new Map(),
    retired: [],
  };
  client.timeline = t;
  return t;
}

/** Notes that this transaction extracted a classification of the subject. */
export function noteExtracted(client: EngineTx, workflowId: number, classificationId: number, subjectId: number): void {
  const t = client.timeline;
  const at = t?.handedAt.get(`${workflowId}:${classificationId}`);
  if (!t || at === undefined) return;
  t.extracted.push(at);
  const key = `${workflowId}:${subjectId}`;
  t.newestBySubject.set(key, Math.max(at, t.newestBySubject.get(key) ?? 0));
}

/** Notes that this transaction retired the workflow's subjects. */
export function noteRetired(client: EngineTx, workflowId: number, subjectIds: number[]): void {
  const t = client.timeline;
  if (!t) return;
  for (const s of subjectIds) {
    const at = t.newestBySubject.get(`${workflowId}:${s}`);
    if (at !== undefined) t.retired.push(at);
  }
}

/** After the commit: the latencies, observed. */
export function observeTimeline(t: PipelineTimeline | undefined, now = Date.now()): void {
  if (!t) return;
  const m = metrics();
  for (const at of t.extracted) m.createToExtract.observe(Math.max(0, now - at) / 1000);
  for (const at of t.retired) m.createToRetirement.observe(Math.max(0, now - at) / 1000);
}
