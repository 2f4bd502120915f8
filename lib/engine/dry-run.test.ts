import { describe, expect, it } from "vitest";
import { parseEngineWorkflowConfig, type TEngineWorkflowConfig } from "./config";
import { dryRun, dryRunDiff, type DryRunClassification } from "./dry-run";
import { classification } from "./testing";

function config(raw: object): TEngineWorkflowConfig {
  const r = parseEngineWorkflowConfig({ id: 12, ...raw });
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

/** A classification of subject `subject` by volunteer `user` answering `value` to T0. */
let id = 0;
const c = (subject: number, user: number | null, value: number): DryRunClassification => ({
  ...classification({
    id: ++id,
    subject_id: subject,
    user_id: user,
    annotations: { T0: [{ task: "T0", value }] },
    subject: { id: subject, metadata: {}, created_at: null, updated_at: null },
  }),
  created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, id)).toISOString(),
});

const consensus = (votes: number) =>
  config({
    extractors_config: { q: { type: "question", task_key: "T0" } },
    reducers_config: { c: { type: "consensus" }, n: { type: "count" } },
    rules_config: [
      { if: ["gte", ["lookup", "c.num_votes", 0], ["const", votes]], then: [{ action: "retire_subject", reason: "consensus" }] },
    ],
  });

// Subject 1: three alike (retires at 3 votes); subject 2: split 1/1 (never).
const classifications = [c(1, 10, 0), c(2, 10, 0), c(1, 11, 0), c(2, 11, 1), c(1, 12, 0)];

describe("dryRun", () => {
  it("extracts, reduces per subject and says which subjects would retire", () => {
    const r = dryRun(consensus(3), classifications);
    expect(r.classifications).toBe(5);
    expect(r.extracts).toHaveLength(5);
    expect(r.extracts[0]).toEqual({
      classification_id: classifications[0].id,
      subject_id: 1,
      user_id: 10,
      extractor_key: "q",
      data: { "0": 1 },
    });
    const of = (subject: number, key: string) => r.reductions.find((x) => x.target_id === subject && x.reducer_key === key)?.data;
    expect(of(1, "c")).toMatchObject({ most_likely: "0", num_votes: 3 });
    expect(of(1, "n")).toMatchObject({ classifications: 3, extracts: 3 });
    expect(of(2, "c")).toMatchObject({ num_votes: 1 });
    expect(r.targets.map((t) => [t.target_id, t.retires, t.retirement_reason])).toEqual([
      [1, true, "consensus"],
      [2, false, null],
    ]);
    expect(r.targets[0].fired).toEqual([{ rule_index: 0, effects: [{ action: "retire_subject", reason: "consensus" }] }]);
    expect(r.skipped).toEqual([]);
  });

  it.each([
    ["a stricter threshold retires nothing", 4, []],
    ["the same threshold retires subject 1", 3, [1]],
    ["a looser one retires both", 1, [1, 2]],
  ])("%s", (_n, votes, retired) => {
    expect(
      dryRun(consensus(votes), classifications)
        .targets.filter((t) => t.retires)
        .map((t) => t.target_id),
    ).toEqual(retired);
  });

  it("reduces by volunteer and evaluates user rules", () => {
    const cfg = config({
      extractors_config: { q: { type: "question", task_key: "T0" } },
      reducers_config: { u: { type: "count", topic: "reduce_by_user" } },
      rules_config: [
        {
          topic: "user",
          if: ["gte", ["lookup", "u.classifications", 0], ["const", 2]],
          then: [{ action: "promote_user", workflow_id: "99" }],
        },
      ],
    });
    const r = dryRun(cfg, classifications);
    expect(r.targets.map((t) => [t.topic, t.target_id, t.fired.length])).toEqual([
      ["user", 10, 1],
      ["user", 11, 1],
      ["user", 12, 0],
    ]);
  });

  it("lists external extractors and reducers as skipped, and runs the rest", () => {
    const cfg = config({
      extractors_config: { q: { type: "question", task_key: "T0" }, x: { type: "external", url: "https://example.org/extract" } },
      reducers_config: { n: { type: "count" }, y: { type: "external", url: "https://example.org/reduce" } },
      rules_config: [],
    });
    const r = dryRun(cfg, classifications);
    expect(r.skipped).toEqual(["extractor 'x' (external)", "reducer 'y' (external)"]);
    expect(r.extracts.every((e) => e.extractor_key === "q")).toBe(true);
    expect(r.targets).toEqual([]);
  });

  it("runs on nothing", () => {
    expect(dryRun(consensus(3), [])).toEqual({ classifications: 0, extracts: [], reductions: [], targets: [], skipped: [] });
  });
});

describe("dryRunDiff", () => {
  it.each([
    ["the same configuration: no difference", 3, 3, []],
    [
      "a looser rule: subject 2 would now retire",
      1,
      3,
      [
        { topic: "subject", target_id: 1, reductions: [], effects: null },
        {
          topic: "subject",
          target_id: 2,
          reductions: [],
          effects: { edited: [{ action: "retire_subject", reason: "consensus" }], saved: [] },
        },
      ].filter((d) => d.effects),
    ],
  ])("%s", (_n, edited, saved, want) => {
    expect(dryRunDiff(dryRun(consensus(edited), classifications), dryRun(consensus(saved), classifications))).toEqual(want);
  });

  it("names the reducers whose reductions change", () => {
    const other = config({
      extractors_config: { q: { type: "question", task_key: "T0" } },
      reducers_config: { c: { type: "consensus" } },
      rules_config: [],
    });
    const diff = dryRunDiff(dryRun(other, classifications), dryRun(consensus(3), classifications));
    expect(diff.map((d) => [d.target_id, d.reductions, !!d.effects])).toEqual([
      [1, ["n"], true],
      [2, ["n"], false],
    ]);
  });
});
