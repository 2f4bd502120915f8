import { describe, expect, it } from "vitest";
import { parseEngineWorkflowConfig } from "@/lib/engine/config";
import { effects } from "@/lib/engine/effects/effects";
import { extractors } from "@/lib/engine/extractors";
import { reducers } from "@/lib/engine/reducers";
import { EFFECT_OPTIONS, ENGINE_OPTIONS, effectDetail } from "./engine-options";

// The lab offers what the engine runs: its type lists are the engine's registries, so a reducer added there
// (its file and its registry line) is in the builder with nothing listed again.

describe("the lab's engine options are the engine's registries", () => {
  it.each([
    ["extractor", ENGINE_OPTIONS.extractorTypes, Object.keys(extractors)],
    ["reducer", ENGINE_OPTIONS.reducerTypes, Object.keys(reducers)],
    ["effect", EFFECT_OPTIONS.map((e) => e.action), Object.keys(effects)],
  ])("every %s type, and only those", (_what, offered, registry) => {
    expect([...offered].sort()).toEqual([...registry].sort());
  });

  it.each(EFFECT_OPTIONS.map((e) => [e.action, e]))("the %s effect is offered in the rules of its engine topic", (action, option) => {
    expect(option.topic).toBe(effects[action as keyof typeof effects].topic);
    expect(option.label).not.toBe("");
  });

  it.each(EFFECT_OPTIONS.filter((e) => e.field).map((e) => [e.action, e.field![0]]))(
    "the field the builder asks of %s (%s) is one its schema has",
    (action, field) => {
      expect(Object.keys(effects[action as keyof typeof effects].schema.shape)).toContain(field);
    },
  );
});

const config = (workflow: Record<string, unknown>) => parseEngineWorkflowConfig({ id: 1, ...workflow });

describe("every choice the builder offers is one the engine accepts", () => {
  it.each([
    ...ENGINE_OPTIONS.statuses.map((v) => ["status", { status: v }]),
    ...ENGINE_OPTIONS.rulesApplied.map((v) => ["rules_applied", { rules_applied: v }]),
    ...ENGINE_OPTIONS.ifMissing.map((v) => [
      "if_missing",
      { extractors_config: { q: { type: "question", task_key: "T0", if_missing: v } } },
    ]),
    ...ENGINE_OPTIONS.shapes.map((v) => ["shape", { extractors_config: { s: { type: "shape", task_key: "T0", shape: v } } }]),
    ...ENGINE_OPTIONS.reducerTopics.map((v) => ["topic", { reducers_config: { c: { type: "count", topic: v } } }]),
    ...ENGINE_OPTIONS.reductionModes.map((v) => ["reduction_mode", { reducers_config: { c: { type: "count", reduction_mode: v } } }]),
    ...ENGINE_OPTIONS.trainingBehaviors.map((v) => [
      "training_behavior",
      { reducers_config: { c: { type: "count", filters: { training_behavior: v } } } },
    ]),
    ...ENGINE_OPTIONS.emptyExtracts.map((v) => [
      "empty_extracts",
      { reducers_config: { c: { type: "count", filters: { empty_extracts: v } } } },
    ]),
    ...ENGINE_OPTIONS.retirementReasons.map((v) => [
      "reason",
      { rules_config: [{ if: ["const", true], then: [{ action: "retire_subject", reason: v }] }] },
    ]),
  ] as [string, Record<string, unknown>][])("%s: %j", (_field, workflow) => {
    expect(config(workflow).ok, JSON.stringify(config(workflow))).toBe(true);
  });
});

describe("an effect node's words", () => {
  const targets = {
    subject_set_id: [{ value: "80", label: "Hard ones" }],
    workflow_id: [{ value: "12", label: "Experts" }],
  };
  it.each<[string, Record<string, unknown>, string, string]>([
    ["a subject set by its name", { action: "add_subject_to_set", subject_set_id: "80" }, "Subject set: Hard ones", "subject_set_id: 80"],
    ["a stored id as a number", { action: "add_subject_to_set", subject_set_id: 80 }, "Subject set: Hard ones", "subject_set_id: 80"],
    [
      "an id the project lacks",
      { action: "add_subject_to_set", subject_set_id: "7" },
      "Subject set: #7 (not in this project)",
      "subject_set_id: 7",
    ],
    ["nothing chosen yet", { action: "promote_user", workflow_id: "" }, "Workflow: (not chosen)", "workflow_id: "],
    ["a workflow by its name", { action: "promote_user", workflow_id: "12" }, "Workflow: Experts", "workflow_id: 12"],
    ["a typed field as it is", { action: "add_subject_to_collection", collection_id: "5" }, "Collection id: 5", "collection_id: 5"],
    ["a retirement's reason", { action: "retire_subject", reason: "consensus" }, "Reason: consensus", "reason: consensus"],
    ["no settings", { action: "retire_subject" }, "", ""],
  ])("%s", (_name, effect, detail, hint) => {
    expect(effectDetail(effect, targets)).toEqual({ detail, hint });
  });
});
