import type { TaskList } from "graphile-worker";
import { withTransaction } from "@/lib/db/sql";
import { enqueueEvents } from "./enqueue-events";
import { applyRules } from "./apply-rules";
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

/** graphile-worker transport: emitted events become jobs in the same transaction. */
export const queueTx: TxRunner = (fn) =>
  withTransaction(async (client) => {
    const out: EngineEvent[] = [];
    const result = await fn(client, (...e) => out.push(...e));
    await enqueueEvents(client, out);
    return result;
  });

/** Runs a stage and returns the events its committed transactions emitted (the Inngest functions send them in a step). */
export async function runStageCollecting(event: EngineEvent): Promise<EngineEvent[]> {
  const out: EngineEvent[] = [];
  const tx: TxRunner = (fn) =>
    withTransaction(async (client) => {
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
