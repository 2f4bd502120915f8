import { describe, expect, it } from "vitest";
import { formatIssues } from "../validation";
import { effects, effectTopic, retirementReason, ZEffectConfig } from "./effects";

const parse = (e: unknown) => {
  const r = ZEffectConfig.safeParse(e);
  return r.success ? { ok: r.data } : { error: formatIssues(r.error.issues, "effect") };
};

describe("effect configs", () => {
  it.each([
    [{ action: "retire_subject" }, { action: "retire_subject", reason: "other" }],
    [
      { action: "retire_subject", reason: "consensus" },
      { action: "retire_subject", reason: "consensus" },
    ],
    [
      { action: "retire_subject", reason: "blank" },
      { action: "retire_subject", reason: "blank" },
    ],
    ...["classification_count", "flagged", "nothing_here", "human", "other"].map((reason) => [
      { action: "retire_subject", reason },
      { action: "retire_subject", reason },
    ]),
    [
      { action: "add_subject_to_set", subject_set_id: "12" },
      { action: "add_subject_to_set", subject_set_id: "12" },
    ],
    [
      { action: "add_subject_to_set", subject_set_id: 12 },
      { action: "add_subject_to_set", subject_set_id: "12" },
    ],
    [
      { action: "add_subject_to_set", subject_set_id: " 012 " },
      { action: "add_subject_to_set", subject_set_id: "12" },
    ],
    [
      { action: "add_subject_to_collection", collection_id: 3 },
      { action: "add_subject_to_collection", collection_id: "3" },
    ],
    [
      { action: "external_effect", url: "https://effects.example.org/hook" },
      { action: "external_effect", url: "https://effects.example.org/hook" },
    ],
    [
      { action: "promote_user", workflow_id: "13" },
      { action: "promote_user", workflow_id: "13" },
    ],
    [
      { action: "promote_user", workflow_id: 13 },
      { action: "promote_user", workflow_id: "13" },
    ],
  ] as [unknown, unknown][])("%j is valid", (input, expected) => {
    expect(parse(input)).toEqual({ ok: expected });
  });

  it.each([
    [{ action: "explode" }, "action: unknown effect action 'explode'"],
    [{}, "action: required"],
    [{ action: "retire_subject", reason: "bored" }, "reason: must be one of blank, consensus, other"],
    [{ action: "retire_subject", extra: 1 }, "unknown key(s) 'extra'"],
    [{ action: "add_subject_to_set" }, "subject_set_id"],
    [{ action: "add_subject_to_set", subject_set_id: "abc" }, "subject_set_id: must be an id"],
    [{ action: "add_subject_to_set", subject_set_id: -1 }, "subject_set_id: must be an id"],
    [{ action: "add_subject_to_collection", collection_id: "x1" }, "collection_id: must be an id"],
    [{ action: "external_effect", url: "http://effects.example.org" }, "url: must be an https: URL"],
    [{ action: "external_effect", url: "not a url" }, "url: must be an https: URL"],
    [{ action: "promote_user" }, "workflow_id"],
  ])("%j → %s", (input, message) => {
    expect(parse(input).error).toContain(message);
  });
});

describe("topics and reasons", () => {
  it.each([
    ["retire_subject", "subject"],
    ["add_subject_to_set", "subject"],
    ["add_subject_to_collection", "subject"],
    ["external_effect", "subject"],
    ["promote_user", "user"],
  ])("%s is a %s effect", (action, topic) => {
    expect(effectTopic({ action })).toBe(topic);
    expect(effects[action as keyof typeof effects].topic).toBe(topic);
  });
  it.each([
    ["blank", "nothing_here"],
    ["consensus", "consensus"],
    ["nothing_here", "nothing_here"],
    [undefined, "other"],
  ] as const)("retirementReason(%s) = %s", (reason, expected) => {
    expect(retirementReason(reason)).toBe(expected);
  });
});
