import type { ExtractRecord } from "../types";
import { idSet, numberOr, type ReducerDef, type ReductionData } from "./reducer";
import { ZConsensusReducer, type TConsensusReducer } from "./schemas";

const isVote = (v: unknown) =>
  v !== null && v !== undefined && v !== false && v !== 0 && v !== "" && !(typeof v === "number" && Number.isNaN(v));

/**
 * An extract's vote: its data keys with truthy, nonzero values, sorted and joined with `+`
 * (`{"1": 1, "0": 0}` → `"1"`; `{"ZEBRA": 1, "LION": 2}` → `"LION+ZEBRA"`). Null when there are none.
 */
export function consensusKey(data: ExtractRecord["data"]): string | null {
  if (!data) return null;
  const keys = Object.entries(data)
    .filter(([, v]) => isVote(v))
    .map(([k]) => k)
    .sort();
  return keys.length ? keys.join("+") : null;
}

/** Votes by key. Keys are volunteers' answers: no prototype, so `constructor` or `__proto__` is a key like any other. */
const noVotes = (): Record<string, number> => Object.create(null);

function result(votes: Record<string, number>, classifications: number): ReductionData {
  let best: string | null = null;
  for (const [key, n] of Object.entries(votes)) {
    // Ties go to the key that sorts first (code-unit order), so the result never depends on extract order.
    if (best === null || n > votes[best] || (n === votes[best] && key < best)) best = key;
  }
  if (best === null) return { num_votes: 0 };
  return { most_likely: best, num_votes: votes[best], agreement: classifications > 0 ? votes[best] / classifications : 0 };
}

/**
 * `consensus` → `{most_likely, num_votes, agreement}`: each extract votes once for its key (see consensusKey);
 * `most_likely` is the key with most votes, `num_votes` its votes, `agreement` = num_votes / distinct
 * classifications among the extracts (an extract without a vote still counts as a classification). Ties:
 * the key first in code-unit order. `{num_votes: 0}` when nothing was voted. Running store:
 * `{votes: {key: n}, classification_ids: [...]}`.
 */
export const consensusReducer: ReducerDef<TConsensusReducer> = {
  schema: ZConsensusReducer,
  output: "{most_likely: string, num_votes: number, agreement: number} or {num_votes: 0}",
  reduce(_config, extracts) {
    const votes = noVotes();
    for (const e of extracts) {
      const key = consensusKey(e.data);
      if (key !== null) votes[key] = (votes[key] ?? 0) + 1;
    }
    return result(votes, new Set(extracts.map((e) => e.classificationId)).size);
  },
  runningReduce(_config, newExtracts, store) {
    const votes = noVotes();
    const previous = store.votes && typeof store.votes === "object" ? (store.votes as Record<string, unknown>) : {};
    for (const [k, v] of Object.entries(previous)) votes[k] = numberOr(v, 0);
    const ids = idSet(store.classification_ids);
    for (const e of newExtracts) {
      ids.add(e.classificationId);
      const key = consensusKey(e.data);
      if (key !== null) votes[key] = (votes[key] ?? 0) + 1;
    }
    return { data: result(votes, ids.size), store: { votes, classification_ids: [...ids] } };
  },
};
