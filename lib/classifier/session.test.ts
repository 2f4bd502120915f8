import { describe, expect, it } from "vitest";
import { needsTopUp, newSession, type SessionAction, type SessionState, sessionReducer } from "./session";

type S = { id: string };
const subjects = (...ids: string[]) => ids.map((id) => ({ id }));
const ids = (s: SessionState<S>) => s.queue.map((x) => x.id);
const run = (actions: SessionAction<S>[], from = newSession<S>()) => actions.reduce(sessionReducer, from);
const fetched = (round: number, ...list: string[]): SessionAction<S> => ({ type: "fetched", round, subjects: subjects(...list) });
const feedback = [{ taskKey: "T0", ruleId: "r", success: true, message: "Right" }];

describe("sessionReducer", () => {
  const cases: { name: string; actions: SessionAction<S>[]; queue: string[]; expect?: Partial<SessionState<S>> }[] = [
    { name: "a first round fills the queue", actions: [fetched(0, "1", "2", "3")], queue: ["1", "2", "3"], expect: { received: 0 } },
    {
      name: "a subject a later round answers again is not queued twice",
      actions: [fetched(0, "1", "2"), { type: "topUp" }, fetched(1, "2", "3")],
      queue: ["1", "2", "3"],
      expect: { round: 1, received: 1, exhausted: false },
    },
    {
      name: "a round with nothing new means nothing is left",
      actions: [fetched(0, "1"), { type: "topUp" }, fetched(1, "1")],
      queue: ["1"],
      expect: { exhausted: true },
    },
    { name: "an empty first round: nothing to classify", actions: [fetched(0)], queue: [], expect: { exhausted: true } },
    {
      name: "the same answer delivered twice changes nothing (not exhausted by the repeat)",
      actions: [fetched(0, "1", "2"), fetched(0, "1", "2")],
      queue: ["1", "2"],
      expect: { exhausted: false },
    },
    { name: "an answer to another round is ignored", actions: [fetched(3, "9")], queue: [], expect: { received: -1 } },
    {
      name: "Done moves on, counts and keeps the feedback",
      actions: [fetched(0, "1", "2", "3"), { type: "done", feedback }],
      queue: ["2", "3"],
      expect: { saved: 1, feedback },
    },
    {
      name: "closing the feedback empties it",
      actions: [fetched(0, "1", "2"), { type: "done", feedback }, { type: "feedbackClosed" }],
      queue: ["2"],
      expect: { feedback: [], saved: 1 },
    },
    { name: "gold standard mode is switched", actions: [{ type: "goldStandard", on: true }], queue: [], expect: { goldStandard: true } },
    {
      name: "no top up before the round's answer is in",
      actions: [{ type: "topUp" }, { type: "topUp" }],
      queue: [],
      expect: { round: 0 },
    },
    {
      name: "no top up while more than two subjects are left",
      actions: [fetched(0, "1", "2", "3"), { type: "topUp" }],
      queue: ["1", "2", "3"],
      expect: { round: 0 },
    },
    {
      name: "a top up once two are left, one round at a time",
      actions: [fetched(0, "1", "2", "3"), { type: "done", feedback: [] }, { type: "topUp" }, { type: "topUp" }],
      queue: ["2", "3"],
      expect: { round: 1, received: 0 },
    },
    {
      name: "no top up once exhausted",
      actions: [fetched(0, "1"), { type: "topUp" }, fetched(1), { type: "topUp" }],
      queue: ["1"],
      expect: { round: 1, exhausted: true },
    },
  ];
  it.each(cases)("$name", ({ actions, queue, expect: fields }) => {
    const s = run(actions);
    expect(ids(s)).toEqual(queue);
    expect(s).toMatchObject(fields ?? {});
  });

  it("does not change the state it is given", () => {
    const before = run([fetched(0, "1", "2")]);
    const copy = { ...before, queue: [...before.queue], seen: new Set(before.seen) };
    run([{ type: "done", feedback }, { type: "topUp" }, fetched(1, "3")], before);
    expect(before).toEqual(copy);
  });

  it("needsTopUp follows the queue, the round's answer and exhaustion", () => {
    expect(needsTopUp(newSession())).toBe(false);
    expect(needsTopUp(run([fetched(0, "1", "2")]))).toBe(true);
    expect(needsTopUp(run([fetched(0, "1", "2", "3")]))).toBe(false);
    expect(needsTopUp(run([fetched(0)]))).toBe(false);
  });
});
