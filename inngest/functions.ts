import { NonRetriableError } from "inngest";
import { EVENT_SCHEMAS, EVENTS, type EngineEvent, type EventName } from "@/lib/engine/run/events";
import { runStageCollecting } from "@/lib/engine/run/pipeline";
import { inngest } from "@/lib/engine/run/inngest-client";

// One Inngest function per pipeline stage, each a thin wrapper: run the stage (load → pure stage →
// persist, in one transaction, idempotent) as a step, then send the events it emitted as another step.
// Reductions of one subject or user run one at a time (concurrency key); the stage also takes an advisory
// lock, so the guarantee holds whichever transport runs it.

type StageEvent = { name: string; data: unknown };

function stageFunction(
  id: string,
  event: EventName,
  options: { concurrencyKey?: string; retries?: number; debounce?: { key: string; period: string; timeout: string } } = {},
) {
  return inngest.createFunction(
    {
      id,
      triggers: [{ event }],
      retries: (options.retries ?? 10) as 10,
      ...(options.concurrencyKey ? { concurrency: [{ key: options.concurrencyKey, limit: 1 }] } : {}),
      ...(options.debounce ? { debounce: options.debounce as { key: string; period: "1s"; timeout: "1s" } } : {}),
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
/**
 * A burst of extracts for one subject (or user) is reduced once: the reduce function waits until its
 * target has been quiet for ENGINE_INNGEST_DEBOUNCE (default 1s, Inngest's minimum; "off" disables),
 * at most 10 s, then reduces everything the target has. The built-in queue coalesces by batching instead.
 */
function reduceDebounce() {
  const period = process.env.ENGINE_INNGEST_DEBOUNCE ?? "1s";
  return period === "off" ? undefined : { key: TARGET_KEY, period, timeout: "10s" };
}

export const reduceFn = stageFunction("reduce", EVENTS.extractsChanged, { concurrencyKey: TARGET_KEY, debounce: reduceDebounce() });
export const externalReduceFn = stageFunction("external-reduce", EVENTS.externalReduceRequested, {
  concurrencyKey: TARGET_KEY,
  retries: 5,
});
export const applyRulesFn = stageFunction("apply-rules", EVENTS.reductionsChanged, { concurrencyKey: TARGET_KEY });
export const performActionFn = stageFunction("perform-action", EVENTS.actionCreated);
export const performExternalActionFn = stageFunction("perform-external-action", EVENTS.externalActionCreated, { retries: 5 });

export const functions = [
  extractClassificationFn,
  externalExtractFn,
  reduceFn,
  externalReduceFn,
  applyRulesFn,
  performActionFn,
  performExternalActionFn,
];
