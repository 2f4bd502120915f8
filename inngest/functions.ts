import { NonRetriableError } from "inngest";
import { EVENT_SCHEMAS, EVENTS, type EngineEvent, type EventName } from "@/lib/engine/run/events";
import { runStageCollecting } from "@/lib/engine/run/pipeline";
import { inngest } from "./client";

// One Inngest function per pipeline stage, each a thin wrapper: run the stage (load → pure stage →
// persist, in one transaction, idempotent) as a step, then send the events it emitted as another step.
// Reductions of one subject or user run one at a time (concurrency key); the stage also takes an advisory
// lock, so the guarantee holds whichever transport runs it.

type StageEvent = { name: string; data: unknown };

function stageFunction(id: string, event: EventName, options: { concurrencyKey?: string; retries?: number } = {}) {
  return inngest.createFunction(
    {
      id,
      triggers: [{ event }],
      retries: (options.retries ?? 10) as 10,
      ...(options.concurrencyKey ? { concurrency: [{ key: options.concurrencyKey, limit: 1 }] } : {}),
    },
    async ({ event: e, step }) => {
      const data = EVENT_SCHEMAS[event].safeParse(e.data);
      // A malformed event can never succeed: fail the run without retrying it.
      if (!data.success) throw new NonRetriableError(`malformed ${event} event: ${data.error.message}`);
      const stageEvent = { name: event, data: data.data } as EngineEvent;
      const emitted: StageEvent[] = await step.run("run-stage", () => runStageCollecting(stageEvent));
      if (emitted.length) await step.sendEvent("emit-events", emitted as never);
      return { emitted: emitted.length };
    },
  );
}

const TARGET_KEY = 'event.data.workflow_id + ":" + event.data.topic + ":" + event.data.target_id';

export const extractClassificationFn = stageFunction("extract-classification", EVENTS.classificationReceived);
export const externalExtractFn = stageFunction("external-extract", EVENTS.externalExtractRequested, { retries: 5 });
export const reduceFn = stageFunction("reduce", EVENTS.extractsChanged, { concurrencyKey: TARGET_KEY });
export const externalReduceFn = stageFunction("external-reduce", EVENTS.externalReduceRequested, { concurrencyKey: TARGET_KEY, retries: 5 });
export const applyRulesFn = stageFunction("apply-rules", EVENTS.reductionsChanged, { concurrencyKey: TARGET_KEY });
export const performActionFn = stageFunction("perform-action", EVENTS.actionCreated);
export const performExternalActionFn = stageFunction("perform-external-action", EVENTS.externalActionCreated, { retries: 5 });

export const functions = [extractClassificationFn, externalExtractFn, reduceFn, externalReduceFn, applyRulesFn, performActionFn, performExternalActionFn];
