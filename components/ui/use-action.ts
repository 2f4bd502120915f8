"use client";
import { useMutation } from "@tanstack/react-query";
import type { Outcome } from "./status-message";

/** What an action resolves with: the text of its outcome, an outcome of another kind (a warning), or nothing. */
// biome-ignore lint/suspicious/noConfusingVoidType: `async () => { ... }` actions resolve with Promise<void>, which `undefined` would refuse
type Result = string | Outcome | void;
type Action = () => Promise<Result>;

/**
 * The one way a component writes: an action with its state, on TanStack Query's mutations. `run` marks it
 * busy, clears the last outcome, and records the outcome: the text the action resolves with (nothing when it
 * resolves with nothing; an Outcome it resolves with is kept as it is), or its error's message (shown by StatusMessage). `run` itself never rejects.
 * Actions run offline too (TanStack would pause them): a request then fails and says why, and an action
 * only on this browser (the classifier's pending queue) is exactly what must run offline.
 */
export function useAction() {
  const mutation = useMutation<Result, Error, Action>({ mutationFn: (action) => action(), networkMode: "always" });
  const data = mutation.data;
  const outcome: Outcome | null = mutation.isError
    ? { kind: "error", text: mutation.error.message }
    : typeof data === "string"
      ? data
        ? { kind: "ok", text: data }
        : null
      : (data ?? null);
  const run = (action: Action): Promise<void> =>
    mutation.mutateAsync(action).then(
      () => {},
      () => {},
    );
  /** Forgets the last outcome (a new file chosen: the last one's message no longer applies). */
  const reset = mutation.reset;
  return { busy: mutation.isPending, outcome, run, reset };
}
