import type { TaskList } from "graphile-worker";
import { withTransaction, type Sql } from "@/lib/db/sql";
import { enqueueEvents } from "./enqueue-events";
import { applyRules } from "./apply-rules";
import { forgetSubjectMetadata } from "./classification-data";
import { EVENT_SCHEMAS, EVENTS, EXTERNAL_EVENTS, type EngineEvent, type EventName } from "./events";
import { extractClassification } from "./extract-classification";
import { externalExtract, externalReduce } from "./external-stages";
import { performAction } from "./perform-action";
import { reduceTarget } from "./reduce-target";
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
      return extractClassification(tx, event.data.classification_id);
    case EVENTS.externalExtractRequested:
      return externalExtract(tx, event.data.classification_id, event.data.extractor_key);
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
 * transaction (depth first), and only stages that call outside services become jobs. So one job carries a
 * classification from extraction to its retirement: one commit, nothing half done, far less queue
 * traffic than a job per stage. Each action runs under a savepoint: one that fails leaves the rest
 * committed and is retried as a job of its own.
 */
async function runInline<T>(client: Sql, fn: (client: Sql, emit: Emit) => Promise<T>): Promise<T> {
  const emitted: EngineEvent[] = [];
  const result = await fn(client, (...e) => emitted.push(...e));
  const later: EngineEvent[] = [];
  for (const e of emitted) {
    if (!INLINE.includes(e.name)) later.push(e);
    else if (e.name !== EVENTS.actionCreated) await runStage(e, (g) => runInline(client, g));
    else {
      await client.query("SAVEPOINT engine_action");
      try {
        await runStage(e, (g) => runInline(client, g));
        await client.query("RELEASE SAVEPOINT engine_action");
      } catch {
        await client.query("ROLLBACK TO SAVEPOINT engine_action");
        later.push(e);
      }
    }
  }
  await enqueueEvents(client, later);
  return result;
}

/** Built-in queue transport: a stage and the internal stages it triggers share one transaction; other events become jobs in it. */
export const queueTx: TxRunner = (fn) => stageTransaction((client) => runInline(client, fn));

/** A transaction for stages: what they remembered about it is forgotten with it (pooled clients are reused). */
function stageTransaction<T>(fn: (client: Sql) => Promise<T>): Promise<T> {
  return withTransaction(async (client) => {
    try {
      return await fn(client);
    } finally {
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
      const { inngest } = await import("@/inngest/client");
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
