import type { ExtractRecord } from "../types";
import type { ReducerDef } from "./reducer";
import { ZQueueReducer, type TQueueReducer } from "./schemas";

/** An extract as the wire shows it (snake_case, ISO time). */
export interface WireExtract {
  id: number;
  classification_id: number;
  classification_at: string;
  subject_id: number;
  user_id: number | null;
  workflow_id: number;
  extractor_key: string;
  data: Record<string, unknown> | null;
}

export function wireExtract(e: ExtractRecord): WireExtract {
  return {
    id: e.id,
    classification_id: e.classificationId,
    classification_at: new Date(e.classificationAt).toISOString(),
    subject_id: e.subjectId,
    user_id: e.userId,
    workflow_id: e.workflowId,
    extractor_key: e.extractorKey,
    data: e.data,
  };
}

export interface QueueMessage {
  queue_url: string;
  queue_name: string;
  body: WireExtract;
}

/** One message per extract, for the pipeline to deliver to the configured queue. */
export function queueMessages(config: Pick<TQueueReducer, "queue_url" | "queue_name">, extracts: readonly ExtractRecord[]): QueueMessage[] {
  return extracts.map((e) => ({ queue_url: config.queue_url, queue_name: config.queue_name, body: wireExtract(e) }));
}

/**
 * `queue` → `{messages: WireExtract[]}`: the extracts to deliver to `queue_name` at `queue_url` (delivery is the
 * pipeline's; see queueMessages). In running mode only new extracts, so each is delivered once; store `{}`.
 */
export const queueReducer: ReducerDef<TQueueReducer> = {
  schema: ZQueueReducer,
  output: "{messages: extract[]} (to deliver; not a stored result)",
  remote: true,
  reduce: (_config, extracts) => ({ messages: extracts.map(wireExtract) }),
  runningReduce: (_config, newExtracts) => ({ data: { messages: newExtracts.map(wireExtract) }, store: {} }),
};
