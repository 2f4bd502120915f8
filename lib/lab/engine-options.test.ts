import { describe, expect, it } from "vitest";
import { parseEngineWorkflowConfig } from "@/lib/engine/config";
import { effects } from "@/lib/engine/effects/effects";
import { extractors } from "@/lib/engine/extractors";
import { reducers } from "@/lib/engine/reducers";
import { EFFECT_OPTIONS, ENGINE_OPTIONS } from "./engine-options";

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
