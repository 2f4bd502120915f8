import { describe, expect, it } from "vitest";
import { conditionFromWire, conditionToWire } from "./condition-model";
import {
  conditionFromSentence,
  newClause,
  ruleFields,
  sentenceFromCondition,
  sentenceText,
  withLookup,
  type Sentence,
} from "./condition-sentence";

// The hedgehog project: one question extractor on "Is there an animal?", one consensus reducer, a count.
const tasks = [
  { key: "T0", task: { type: "single", question: "Is there an animal?", answers: [{ label: "Yes" }, { label: "No" }] } },
  { key: "T1", task: { type: "drawing", instruction: "Draw the hedgehog" } },
];
const extractors = [{ key: "q", config: { type: "question", task_key: "T0" } }];
const reducers = [
  { key: "c", config: { type: "consensus" } },
  { key: "n", config: { type: "count" } },
];
const fields = ruleFields(reducers, extractors, tasks, "subject");

describe("a rule's condition as a sentence", () => {
  it("names each reducer output, the consensus's answers by the question's answer labels, and the subject's priority", () => {
    expect(fields.map((f) => [f.lookup, f.label, f.kind])).toEqual([
      ["c.most_likely", "the most common answer", "answer"],
      ["c.num_votes", "its number of votes", "number"],
      ["c.agreement", "its share of the votes (0 to 1)", "number"],
      ["n.classifications", "the number of classifications", "number"],
      ["n.extracts", "the number of extracts", "number"],
      ["subject.#priority", "the subject's priority", "number"],
    ]);
    expect(fields[0].answers).toEqual([
      { value: "0", label: "Yes" },
      { value: "1", label: "No" },
    ]);
  });

  it("tells two reducers' same outputs apart by their keys; a user rule sees only per-volunteer reducers", () => {
    const two = ruleFields(
      [
        { key: "a", config: { type: "count" } },
        { key: "b", config: { type: "count" } },
        { key: "u", config: { type: "count", topic: "reduce_by_user" } },
      ],
      [],
      [],
      "subject",
    );
    expect(two.slice(0, 2).map((f) => f.label)).toEqual(["the number of classifications (a)", "the number of extracts (a)"]);
    expect(two.map((f) => f.lookup)).not.toContain("u.classifications");
    expect(ruleFields([{ key: "u", config: { type: "count", topic: "reduce_by_user" } }], [], [], "user").map((f) => f.lookup)).toEqual([
      "u.classifications",
      "u.extracts",
    ]);
  });

  it.each([
    ["none named (the engine's saved default)", []],
    ["named by one key", "q"],
    ["named in a list", ["q"]],
    ["null", null],
  ])("names the answers when the consensus's extractor keys are %s, as the engine reads them", (_name, keys) => {
    const saved = ruleFields(
      [{ key: "c", config: { type: "consensus", filters: { extractor_keys: keys } } }],
      extractors,
      tasks,
      "subject",
    );
    expect(saved[0].answers?.map((a) => a.label)).toEqual(["Yes", "No"]);
  });

  it("has no answer list for a consensus reading several extractors (their answers are not one question's)", () => {
    const f = ruleFields(reducers, [...extractors, { key: "q2", config: { type: "question", task_key: "T1" } }], tasks, "subject");
    expect(f[0].answers).toBeUndefined();
  });

  it.each([
    {
      name: "the hedgehog rule: most common answer No, at least 3 votes",
      wire: ["and", ["eq", ["lookup", "c.most_likely"], ["const", "1"]], ["gte", ["lookup", "c.num_votes", 0], ["const", 3]]],
      sentence: {
        join: "and",
        clauses: [
          { lookup: "c.most_likely", op: "eq", value: "1" },
          { lookup: "c.num_votes", op: "gte", value: "3" },
        ],
      },
      text: "the most common answer is No and its number of votes is at least 3",
    },
    {
      name: "one comparison",
      wire: ["lt", ["lookup", "n.classifications", 0], ["const", 10]],
      sentence: { join: "and", clauses: [{ lookup: "n.classifications", op: "lt", value: "10" }] },
      text: "the number of classifications is less than 10",
    },
    {
      name: "any of two",
      wire: ["or", ["gt", ["lookup", "c.agreement", 0], ["const", 0.8]], ["eq", ["lookup", "subject.#priority", 0], ["const", 5]]],
      sentence: {
        join: "or",
        clauses: [
          { lookup: "c.agreement", op: "gt", value: "0.8" },
          { lookup: "subject.#priority", op: "eq", value: "5" },
        ],
      },
      text: "its share of the votes (0 to 1) is more than 0.8 or the subject's priority is exactly 5",
    },
    { name: "always", wire: ["const", true], sentence: { join: "and", clauses: [] }, text: "always" },
  ] as { name: string; wire: unknown[]; sentence: Sentence; text: string }[])(
    "$name: read as a sentence, and written back the same",
    ({ wire, sentence, text }) => {
      const read = sentenceFromCondition(conditionFromWire(wire), fields);
      expect(read).toEqual(sentence);
      expect(conditionToWire(conditionFromSentence(sentence, fields))).toEqual(wire);
      expect(sentenceText(sentence, fields)).toBe(text);
    },
  );

  it.each([
    { name: "a not", wire: ["not", ["gte", ["lookup", "c.num_votes", 0], ["const", 3]]] },
    { name: "nesting", wire: ["and", ["or", ["gte", ["lookup", "c.num_votes", 0], ["const", 3]]]] },
    { name: "an output no reducer has", wire: ["gte", ["lookup", "x.num_votes", 0], ["const", 3]] },
    { name: "another default", wire: ["gte", ["lookup", "c.num_votes", 5], ["const", 3]] },
    { name: "an answer with a default", wire: ["eq", ["lookup", "c.most_likely", "0"], ["const", "1"]] },
    { name: "an answer compared by size", wire: ["gte", ["lookup", "c.most_likely"], ["const", "1"]] },
    { name: "a number compared with text", wire: ["eq", ["lookup", "c.num_votes", 0], ["const", "3"]] },
    { name: "two lookups", wire: ["gte", ["lookup", "c.num_votes", 0], ["lookup", "n.classifications", 0]] },
    { name: "arithmetic", wire: ["gt", ["+", ["lookup", "c.num_votes", 0], ["const", 1]], ["const", 3]] },
  ])("$name: no sentence (it stays in the advanced editor, unchanged)", ({ wire }) => {
    expect(sentenceFromCondition(conditionFromWire(wire), fields)).toBeNull();
  });

  it("starts a clause on the vote count; a new output keeps the comparison only when it is of the same kind", () => {
    expect(newClause(fields)).toEqual({ lookup: "c.num_votes", op: "gte", value: "3" });
    expect(newClause([])).toBeNull();
    const votes = { lookup: "c.num_votes", op: "lt", value: "7" } as const;
    expect(withLookup(votes, "n.extracts", fields)).toEqual({ lookup: "n.extracts", op: "lt", value: "7" });
    expect(withLookup(votes, "c.most_likely", fields)).toEqual({ lookup: "c.most_likely", op: "eq", value: "0" });
    expect(withLookup({ lookup: "c.most_likely", op: "eq", value: "1" }, "c.agreement", fields)).toEqual({
      lookup: "c.agreement",
      op: "gte",
      value: "3",
    });
  });
});
