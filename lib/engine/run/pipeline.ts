import type { TaskList } from "graphile-worker";
import { withTransaction } from "@/lib/db/sql";
import { enqueueEvents } from "./enqueue-events";
import { applyRules, applyRulesTo } from "./apply-rules";
import { EVENT_SCHEMAS, EVENTS, EXTERNAL_EVENTS, type EngineEvent, type EventName } from "./events";
import { extractClassification } from "./extract-classification";
import { externalExtract, externalReduce } from "./external-stages";
import { performAction, performRetirements } from "./perform-action";
import { engineTx, type EngineTx } from "./engine-tx";
import type { Topic } from "./engine-data";
import { lockReductionTargets, reduceTarget, reduceTargets } from "./reduce-target";
import type { Emit, TxRunner } from "./stage";

// How the decision engine's stages run. Each stage (extract → reduce → rules → actions) is a function of
// the files beside this one; this file runs them:
// - runStage: the stage an event starts (an Inngest function's step, or a graphile-worker job);
// - queueTx: the built-in queue's transaction (an EngineTx, lib/engine/run/engine-tx.ts), in which a stage
//   and every internal stage it asks for run one after the other (runInline), so a batch of
//   classifications goes from extraction to retirement in one commit; only stages that call outside
//   services become jobs;
// - runStageCollecting: one stage in its own transaction, answering the events it emitted (Inngest sends
//   them in a step);
// - engineTasks / externalEngineTasks: the graphile-worker tasks, one per event. Without an Inngest server
//   they run the stage; with one, they forward the event to Inngest (a transactional outbox), whose
//   functions (inngest/functions.ts) run the stages.
// Where classifications come in (the inbox, its consumers and the Inngest dispatcher) is engine-inbox.ts.

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
async function runInline<T>(client: EngineTx, fn: (client: EngineTx, emit: Emit) => Promise<T>): Promise<T> {
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
      const mark = client.retired.mark();
      await client.query("SAVEPOINT engine_action");
      try {
        await runStage(e, (g) => runInline(client, g));
        await client.query("RELEASE SAVEPOINT engine_action");
      } catch {
        await client.query("ROLLBACK TO SAVEPOINT engine_action");
        client.retired.rollback(mark);
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
 * A transaction for stages, with its EngineTx: what the stages keep goes with it. The retired counters its
 * retirements move are moved once, as its last statement (RetiredLedger).
 */
function stageTransaction<T>(fn: (tx: EngineTx) => Promise<T>): Promise<T> {
  return withTransaction(async (client) => {
    const tx = engineTx(client);
    const result = await fn(tx);
    await tx.retired.flush(tx);
    return result;
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

const ALL = Object.values(EVENTS) as EventName[];
/** graphile-worker tasks of the pipeline stages that stay inside this app. */
export const engineTasks: TaskList = Object.fromEntries(ALL.filter((n) => !EXTERNAL_EVENTS.includes(n)).map((n) => [n, taskFor(n)]));
/** Stages that call outside services, run by a worker of their own so they never hold up the rest. */
export const externalEngineTasks: TaskList = Object.fromEntries(EXTERNAL_EVENTS.map((n) => [n, taskFor(n)]));
