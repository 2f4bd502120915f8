import { z } from "zod";

// The pipeline's events. Each names the stage it starts; the same names are Inngest event names and
// graphile-worker task identifiers, so both transports run the same stage functions.

export const EVENTS = {
  classificationReceived: "engine/classification.received",
  externalExtractRequested: "engine/external-extract.requested",
  extractsChanged: "engine/extracts.changed",
  externalReduceRequested: "engine/external-reduce.requested",
  reductionsChanged: "engine/reductions.changed",
  actionCreated: "engine/action.created",
  externalActionCreated: "engine/external-action.created",
} as const;

const ZId = z.number().int().positive();
const ZTarget = z.object({ workflow_id: ZId, topic: z.enum(["subject", "user"]), target_id: ZId });

export const EVENT_SCHEMAS = {
  // workflow_id: the classification's workflow (a forwarded id means something only within it); events
  // queued before it was carried have none, and name component A's classifications only.
  [EVENTS.classificationReceived]: z.object({ classification_id: ZId, workflow_id: ZId.optional() }),
  [EVENTS.externalExtractRequested]: z.object({ classification_id: ZId, workflow_id: ZId.optional(), extractor_key: z.string() }),
  [EVENTS.extractsChanged]: ZTarget,
  [EVENTS.externalReduceRequested]: ZTarget.extend({ reducer_key: z.string() }),
  [EVENTS.reductionsChanged]: ZTarget,
  [EVENTS.actionCreated]: z.object({ action_id: ZId }),
  [EVENTS.externalActionCreated]: z.object({ action_id: ZId }),
} as const;

export type EventName = keyof typeof EVENT_SCHEMAS;

/**
 * Not an event: the built-in queue's job for a batch of classifications taken from the engine inbox
 * (each one becomes a classification.received event when Inngest runs the pipeline).
 */
export const CLASSIFICATION_BATCH_TASK = "engine/classification-batch";
export const ZClassificationBatch = z
  .object({ classification_ids: z.array(ZId).min(1), workflow_ids: z.array(ZId).optional() })
  .refine((b) => !b.workflow_ids || b.workflow_ids.length === b.classification_ids.length, "a workflow id per classification");
export type EventData<N extends EventName> = z.infer<(typeof EVENT_SCHEMAS)[N]>;
export type EngineEvent = { [N in EventName]: { name: N; data: EventData<N> } }[EventName];

/** Events that call outside services run on their own queue, so a slow or failing service never holds up the rest. */
export const EXTERNAL_EVENTS: EventName[] = [EVENTS.externalExtractRequested, EVENTS.externalReduceRequested, EVENTS.externalActionCreated];

/**
 * Deduplication key of an event: a pending event with the same key is replaced, so a burst of changes to
 * one subject coalesces into one reduction (and rules run once for it).
 */
export function eventKey(e: EngineEvent): string {
  switch (e.name) {
    case EVENTS.classificationReceived:
      return `c:${e.data.workflow_id ?? ""}:${e.data.classification_id}`;
    case EVENTS.externalExtractRequested:
      return `xe:${e.data.workflow_id ?? ""}:${e.data.classification_id}:${e.data.extractor_key}`;
    case EVENTS.extractsChanged:
      return `x:${e.data.workflow_id}:${e.data.topic}:${e.data.target_id}`;
    case EVENTS.externalReduceRequested:
      return `xr:${e.data.workflow_id}:${e.data.topic}:${e.data.target_id}:${e.data.reducer_key}`;
    case EVENTS.reductionsChanged:
      return `r:${e.data.workflow_id}:${e.data.topic}:${e.data.target_id}`;
    case EVENTS.actionCreated:
    case EVENTS.externalActionCreated:
      return `a:${e.data.action_id}`;
  }
}
