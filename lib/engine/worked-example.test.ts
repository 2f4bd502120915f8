import { describe, expect, it } from "vitest";
import { parseEngineWorkflowConfig, type TEngineWorkflowConfig } from "./config";
import { extract } from "./extractors";
import { reduce, selectExtracts } from "./reducers";
import { evaluateRules } from "./rules";
import { classification } from "./testing";
import type { ExtractRecord } from "./types";

// The contract's worked example: a survey extractor emits a count per tagged animal, a `stats` reducer sums
// them across classifications, and the rule ["gte", ["lookup", "s.ZEBRA", 0], ["const", 3]] retires the
// subject on the third classification tagging a zebra, not before.
function config(mode: "default_reduction" | "running_reduction"): TEngineWorkflowConfig {
  const r = parseEngineWorkflowConfig({
    id: 12,
    extractors_config: { animals: { type: "survey", task_key: "T1" } },
    reducers_config: { s: { type: "stats", reduction_mode: mode } },
    rules_config: [{ if: ["gte", ["lookup", "s.ZEBRA", 0], ["const", 3]], then: [{ action: "retire_subject", reason: "consensus" }] }],
  });
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

const tags = [["ZEBRA"], ["ZEBRA", "LION"], ["LION"], ["ZEBRA"]];

describe.each(["default_reduction", "running_reduction"] as const)("worked example (%s)", (mode) => {
  it("retires on the third zebra, not before", () => {
    const workflow = config(mode);
    const stored: ExtractRecord[] = [];
    type Previous = { data: Record<string, unknown>; store: Record<string, unknown> | null; incorporatedExtractIds: number[] };
    let previous = null as Previous | null;
    const history: { zebras: unknown; fired: unknown[] }[] = [];

    tags.forEach((animals, i) => {
      const c = classification({
        id: 100 + i,
        user_id: 10 + i,
        annotations: { T1: [{ task: "T1", value: animals.map((choice) => ({ choice })) }] },
      });
      for (const [key, extractorConfig] of Object.entries(workflow.extractors_config)) {
        const out = extract(extractorConfig, c);
        if (out.kind === "data")
          stored.push({
            id: stored.length + 1,
            classificationId: c.id,
            classificationAt: new Date(Date.UTC(2024, 0, 1, 0, i)),
            subjectId: c.subject_id,
            userId: c.user_id,
            workflowId: 12,
            extractorKey: key,
            data: out.data,
          });
      }
      const reducer = workflow.reducers_config.s;
      const group = selectExtracts(reducer, stored).get("_default")!;
      const out = reduce(reducer, group, previous);
      previous = {
        data: out.data,
        store: out.store,
        incorporatedExtractIds: [...(previous?.incorporatedExtractIds ?? []), ...out.incorporatedExtractIds],
      };
      const fired = evaluateRules(workflow.rules_config, workflow.rules_applied, "subject", { reductions: { s: out.data } });
      history.push({ zebras: out.data.ZEBRA, fired: fired.flatMap((f) => f.effects) });
    });

    expect(history).toEqual([
      { zebras: 1, fired: [] },
      { zebras: 2, fired: [] },
      { zebras: 2, fired: [] },
      { zebras: 3, fired: [{ action: "retire_subject", reason: "consensus" }] },
    ]);
    expect(previous!.data).toEqual({ ZEBRA: 3, LION: 2 });
  });
});
