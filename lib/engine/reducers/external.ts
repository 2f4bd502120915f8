import type { ExtractRecord } from "../types";
import { wireExtract, type WireExtract } from "./queue";
import { ReducerError, type ReducerDef } from "./reducer";
import { ZExternalReducer, type TExternalReducer } from "./schemas";

export interface ExternalReducerBody {
  /** The subject id (reduce_by_subject) or user id (reduce_by_user). */
  id: number;
  topic: "reduce_by_subject" | "reduce_by_user";
  extracts: WireExtract[];
}

/** The request for an external reducer: POST `body` as JSON to `url`; its JSON answer is the reduction's data. */
export function externalReducerRequest(
  config: Pick<TExternalReducer, "url"> & { topic?: TExternalReducer["topic"] },
  extracts: readonly ExtractRecord[],
  subjectOrUserId: number,
): { url: string; body: ExternalReducerBody } {
  return {
    url: config.url,
    body: { id: subjectOrUserId, topic: config.topic ?? "reduce_by_subject", extracts: extracts.map(wireExtract) },
  };
}

/** `external` → whatever the service answers (a JSON object). Never reduced in-process. */
export const externalReducer: ReducerDef<TExternalReducer> = {
  schema: ZExternalReducer,
  output: "the external service's JSON object",
  remote: true,
  reduce() {
    throw new ReducerError("external reducers are called over HTTP by the pipeline (externalReducerRequest)");
  },
};
