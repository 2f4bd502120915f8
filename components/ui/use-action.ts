"use client";
import { useState } from "react";
import type { Outcome } from "./status-message";

/**
 * A form's action with its state: `run` marks it busy, clears the last outcome, and records the outcome:
 * the text the action resolves with (nothing when it resolves with nothing), or its error's message.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // biome-ignore lint/suspicious/noConfusingVoidType: `async () => { ... }` actions resolve with Promise<void>, which `undefined` would refuse
  const run = async (action: () => Promise<string | void>) => {
    setBusy(true);
    setOutcome(null);
    try {
      const text = await action();
      if (text) setOutcome({ kind: "ok", text });
    } catch (err) {
      setOutcome({ kind: "error", text: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };
  return { busy, outcome, setOutcome, run };
}
