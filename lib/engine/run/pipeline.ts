import type { TaskList } from "graphile-worker";
import { withTransaction, type Sql } from "@/lib/db/sql";
import { enqueueEvents } from "./enqueue-events";
import { applyRules, applyRulesTo } from "./apply-rules";
import { forgetSubjectMetadata } from "./classification-data";
import {
  CLASSIFICATION_BATCH_TASK,
  EVENT_SCHEMAS,
  EVENTS,
  EXTERNAL_EVENTS,
  ZClassificationBatch,
  type EngineEvent,
  type EventName,
} from "./events";
import { extractClassification, extractClassifications } from "./extract-classification";
import { externalExtract, externalReduce } from "./external-stages";
import { performAction, performRetirements } from "./perform-action";
import {
  discardRetiredCounters,
  flushRetiredCounters,
  openRetiredCounters,
  retiredCountersMark,
  rollbackRetiredCounters,
} from "./retired-counters";
import { lockReductionTargets, reduceTarget, reduceTargets, type Topic } from "./reduce-target";
import type { Emit, TxRunner } from "./stage";

// The pipeline's two transports over the same stage functions:
// - no Inngest server configured (the default, tests, CI): every event is a graphile-worker job, added in
//   the transaction that caused it and run by the in-process worker (or `npm run worker`), with retries
//   and exponential backoff;
// - an Inngest server configured: the same jobs act as a transactional outbox that forwards each event to
//   Inngest, whose functions (inngest/functions.ts) run the stages.

/** Runs the stage an event starts. */
export async function runStage(event: EngineEvent, tx: TxRunner): Promise<void> {
  switch (event.name) {
    case EVENTS.classificationReceived:
      return extractClassification(tx, { id: event.data.classification_id, workflowId: event.data.workflow_id });
    case EVENTS.externalExtractRequested:
      return externalExtract(tx, { id: event.data.classification_id, workflowId: event.data.workflow_id }, event.data.extractor_key);
    case EVENTS.extractsChanged:
      return reduceTarget(tx, event.data.workflow_id, event.data.topic, event.data.target_id);
    case EVENTS.externalReduceRequested:
      return externalReduce(tx, event.data.workflow_id, event.data.topic, event.data.target_id, event.data.reducer_key);
    case EVENTS.reductionsChanged:
      return applyRules(tx, event.data.workflow_id, event.data.topic, event.data.target_id);
    case EVENTS.actionCreated:
    case EVENTS.externalActionCreated:
      return performAction(tx, event.data.action_id);
  }
}

/** Stages the built-in queue runs inside the transaction of the stage that asked for them. */
const INLINE: EventName[] = [EVENTS.extractsChanged, EVENTS.reductionsChanged, EVENTS.actionCreated];

/**
 * Runs fn on the caller's transaction; the internal stages it asks for run right after it on the same
 * transaction, and only stages that call outside services become jobs. So one job carries classifications
 * from extraction to retirement: one commit, nothing half done, far less queue traffic than a job per
 * stage. The stages run stage by stage over everything fn asked for, so a batch of classifications is
 * reduced once per subject (a burst for one subject coalesces) with set-based queries. Each action runs
 * under a savepoint: one that fails leaves the rest committed and is retried as a job of its own.
 */
async function runInline<T>(client: Sql, fn: (client: Sql, emit: Emit) => Promise<T>): Promise<T> {
  const emitted: EngineEvent[] = [];
  const result = await fn(client, (...e) => emitted.push(...e));
  const later: EngineEvent[] = [];
  for (let round = emitted; round.length; ) {
    const next: EngineEvent[] = [];
    const emit: Emit = (...e) => next.push(...e);
    const reduce = targetGroups(round, EVENTS.extractsChanged);
    // Every target's lock first, in one order: transactions reducing overlapping targets never deadlock.
    await lockReductionTargets(
      client,
      reduce.flatMap((g) => g.targetIds.map((targetId) => ({ workflowId: g.workflowId, topic: g.topic, targetId }))),
    );
    for (const g of reduce) await reduceTargets(client, emit, g.workflowId, g.topic, g.targetIds);
    for (const g of targetGroups(round, EVENTS.reductionsChanged)) await applyRulesTo(client, emit, g.workflowId, g.topic, g.targetIds);
    // The round's retirements together (a few statements for the whole batch), then any other action alone.
    const actions = round.flatMap((e) => (e.name === EVENTS.actionCreated ? [e.data.action_id] : []));
    const retired = await performRetirements(client, actions);
    for (const e of round) {
      if (!INLINE.includes(e.name)) later.push(e);
      if (e.name !== EVENTS.actionCreated || retired.has(e.data.action_id)) continue;
      const mark = retiredCountersMark(client);
      await client.query("SAVEPOINT engine_action");
      try {
        await runStage(e, (g) => runInline(client, g));
        await client.query("RELEASE SAVEPOINT engine_action");
      } catch {
        await client.query("ROLLBACK TO SAVEPOINT engine_action");
        rollbackRetiredCounters(client, mark);
        later.push(e);
      }
    }
    round = next;
  }
  await enqueueEvents(client, later);
  return result;
}

/** The targets of one kind of event, grouped by workflow and topic. */
function targetGroups(events: EngineEvent[], name: typeof EVENTS.extractsChanged | typeof EVENTS.reductionsChanged) {
  const groups = new Map<string, { workflowId: number; topic: Topic; targetIds: number[] }>();
  for (const e of events) {
    if (e.name !== name) continue;
    const { workflow_id, topic, target_id } = e.data as { workflow_id: number; topic: Topic; target_id: number };
    const key = `${workflow_id}:${topic}`;
    if (!groups.has(key)) groups.set(key, { workflowId: workflow_id, topic, targetIds: [] });
    groups.get(key)!.targetIds.push(target_id);
  }
  return [...groups.values()];
}

/** Built-in queue transport: a stage and the internal stages it triggers share one transaction; other events become jobs in it. */
export const queueTx: TxRunner = (fn) => stageTransaction((client) => runInline(client, fn));

/**
 * A transaction for stages: what they remembered about it is forgotten with it (pooled clients are reused).
 * The retired counters its retirements move are moved once, as its last statement (retired-counters.ts).
 */
function stageTransaction<T>(fn: (client: Sql) => Promise<T>): Promise<T> {
  return withTransaction(async (client) => {
    openRetiredCounters(client);
    try {
      const result = await fn(client);
      await flushRetiredCounters(client);
      return result;
    } finally {
      discardRetiredCounters(client);
      forgetSubjectMetadata(client);
    }
  });
}

/** Runs a stage and returns the events its committed transactions emitted (the Inngest functions send them in a step). */
export async function runStageCollecting(event: EngineEvent): Promise<EngineEvent[]> {
  const out: EngineEvent[] = [];
  const tx: TxRunner = (fn) =>
    stageTransaction(async (client) => {
      const mine: EngineEvent[] = [];
      const emit: Emit = (...e) => mine.push(...e);
      const result = await fn(client, emit);
      out.push(...mine);
      return result;
    });
  await runStage(event, tx);
  return out;
}

export function inngestConfigured(): boolean {
  const e = process.env;
  return !!((e.INNGEST_EVENT_KEY && e.INNGEST_SIGNING_KEY) || e.INNGEST_DEV || e.INNGEST_BASE_URL);
}

function taskFor(name: EventName) {
  return async (payload: unknown) => {
    const data = EVENT_SCHEMAS[name].parse(payload);
    const event = { name, data } as EngineEvent;
    if (inngestConfigured()) {
      const { inngest } = await import("./inngest-client");
      await inngest.send(event);
      return;
    }
    await runStage(event, queueTx);
  };
}

/**
 * A batch of classifications from the engine inbox (lib/engine/run/engine-inbox.ts). The built-in queue
 * extracts them together and carries them through the stages in one transaction; with Inngest configured,
 * they are sent as one classification event each. If the batch fails, each classification becomes a job
 * of its own with its own retries, so one that cannot be processed never holds up the others.
 */
export async function classificationBatch(payload: unknown): Promise<void> {
  const batch = ZClassificationBatch.parse(payload);
  const refs = batch.classification_ids.map((id, i) => ({ id, workflowId: batch.workflow_ids?.[i] }));
  const events: EngineEvent[] = refs.map((r) => ({
    name: EVENTS.classificationReceived,
    data: { classification_id: r.id, ...(r.workflowId ? { workflow_id: r.workflowId } : {}) },
  }));
  if (inngestConfigured()) {
    const { inngest } = await import("./inngest-client");
    await inngest.send(events);
    return;
  }
  try {
    await queueTx((client, emit) => extractClassifications(client, emit, refs));
  } catch (err) {
    if (refs.length === 1) throw err;
    console.warn(`[engine] a batch of ${refs.length} classifications failed (${(err as Error).message}); retrying each on its own`);
    await withTransaction((client) => enqueueEvents(client, events));
  }
}

const ALL = Object.values(EVENTS) as EventName[];
/** graphile-worker tasks of the pipeline stages that stay inside this app. */
export const engineTasks: TaskList = {
  ...Object.fromEntries(ALL.filter((n) => !EXTERNAL_EVENTS.includes(n)).map((n) => [n, taskFor(n)])),
  [CLASSIFICATION_BATCH_TASK]: classificationBatch,
};
/** Stages that call outside services, run by a worker of their own so they never hold up the rest. */
export const externalEngineTasks: TaskList = Object.fromEntries(EXTERNAL_EVENTS.map((n) => [n, taskFor(n)]));
