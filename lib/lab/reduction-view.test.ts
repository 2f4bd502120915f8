import { describe, expect, it } from "vitest";
import type { Tasks } from "@/lib/tasks/types";
import { answerLabel, barValues, consensusRows, reducerTaskKey, reductionView, taskOfReducer } from "./reduction-view";

const tasks: Tasks = {
  T0: { type: "single", question: "Stripes?", answers: [{ label: "Yes" }, { label: "No" }, { label: "  " }] },
  T1: { type: "survey", choices: { ZEBRA: { label: "Zebra" }, LION: { label: "Lion" } } },
};

const yesNo = { type: "single", question: "Stripes?", answers: [{ label: "Yes" }, { label: "No" }] } as Tasks[string];

describe("reducerTaskKey", () => {
  const config = {
    extractors_config: {
      q: { type: "question", task_key: "T0" },
      s: { type: "survey", task_key: "T1" },
      b: { type: "blank", task_key: "T2" },
    },
    reducers_config: { onlyQ: { filters: { extractor_keys: ["q", "b"] } }, all: {}, viaS: { filters: { extractor_keys: ["s"] } } },
  };
  it.each([
    ["a reducer reading one question extractor", "onlyQ", "T0"],
    ["a reducer reading one survey extractor", "viaS", "T1"],
    ["a reducer reading two answer extractors", "all", null],
    ["an unknown reducer", "nope", null],
    ["an inherited name", "constructor", null],
  ])("%s", (_what, reducer, expected) => {
    expect(reducerTaskKey(config, reducer)).toBe(expected);
  });
  it("finds the task itself", () => {
    expect(taskOfReducer(tasks, config, "viaS")).toBe(tasks.T1);
    expect(taskOfReducer(tasks, null, "viaS")).toBeUndefined();
  });
});

describe("answerLabel", () => {
  it.each([
    ["0", tasks.T0, "Yes"],
    ["0+1", tasks.T0, "Yes + No"],
    ["2", tasks.T0, "answer 2"],
    ["9", tasks.T0, "answer 9"],
    ["ZEBRA", tasks.T1, "Zebra"],
    ["LION+ZEBRA", tasks.T1, "Lion + Zebra"],
    ["HIPPO", tasks.T1, "HIPPO"],
    ["0", undefined, "0"],
  ])("%s", (key, task, label) => {
    expect(answerLabel(task, key)).toBe(label);
  });
});

describe("reductionView", () => {
  it("shows a consensus with its most likely answer named", () => {
    expect(reductionView({ most_likely: "1", num_votes: 3, agreement: 0.75 }, tasks.T0)).toEqual({
      kind: "consensus",
      key: "1",
      label: "No",
      votes: 3,
      agreement: 0.75,
    });
    expect(reductionView({ num_votes: 0 }, tasks.T0)).toMatchObject({ kind: "consensus", key: null, votes: 0 });
  });

  it("shows answer counts as labelled rows in answer order, the largest marked once", () => {
    expect(reductionView({ "1": 4, "0": 4, "9": 1 }, tasks.T0)).toEqual({
      kind: "counts",
      total: 9,
      rows: [
        { key: "0", label: "Yes", count: 4, top: true },
        { key: "1", label: "No", count: 4, top: false },
        { key: "2", label: "answer 2", count: 0, top: false },
        { key: "9", label: "answer 9", count: 1, top: false },
      ],
    });
    expect(reductionView({ ZEBRA: 2, LION: 1 }, tasks.T1)).toMatchObject({
      kind: "counts",
      rows: [
        { label: "Zebra", top: true },
        { label: "Lion", top: false },
      ],
    });
  });

  it.each([
    ["a yes/no question's counts name both answers", { "1": 1 }, ["Yes: 0", "No: 1"]],
    ["a survey's counts name only what was given", { ZEBRA: 2 }, ["Zebra: 2"]],
  ])("%s", (_what, data, rows) => {
    const task = "ZEBRA" in data ? tasks.T1 : yesNo;
    const view = reductionView(data, task);
    expect(view.kind === "counts" && view.rows.map((r) => `${r.label}: ${r.count}`)).toEqual(rows);
  });

  it.each([
    ["a yes/no consensus names the other answer", { most_likely: "0", num_votes: 2, agreement: 2 / 3 }, yesNo, ["Yes: 2", "No: 1"]],
    ["…even when all agreed", { most_likely: "1", num_votes: 1, agreement: 1 }, yesNo, ["No: 1", "Yes: 0"]],
    ["three answers: the rest together", { most_likely: "0", num_votes: 2, agreement: 0.5 }, tasks.T0, ["Yes: 2", "Other answers: 2"]],
    ["three answers, all agreed", { most_likely: "0", num_votes: 2, agreement: 1 }, tasks.T0, ["Yes: 2"]],
    ["no votes", { num_votes: 0 }, yesNo, []],
  ])("%s", (_what, data, task, rows) => {
    const view = reductionView(data, task);
    expect(view.kind === "consensus" && consensusRows(view, task).map((r) => `${r.label}: ${r.value}`)).toEqual(rows);
  });

  it.each([
    ["counts", { "0": 3, "1": 1 }, [3, 1]],
    ["a consensus", { most_likely: "1", num_votes: 3, agreement: 0.75 }, [3, 1]],
    ["fields", { classifications: 3 }, []],
  ])("draws %s as bars of %j", (_what, data, values) => {
    expect(barValues(data, yesNo)).toEqual(values);
  });

  it.each([
    ["a count reducer's output", { classifications: 3, extracts: 3 }, tasks.T0, "fields"],
    ["counts with no task known", { "0": 1 }, undefined, "fields"],
    ["summary stats", { mean: 4.5, max: null }, undefined, "fields"],
    ["nested objects", { a: { b: 1 } }, undefined, "raw"],
    ["not an object", [1, 2], undefined, "raw"],
  ])("shows %s as %s", (_what, data, task, kind) => {
    expect(reductionView(data, task).kind).toBe(kind);
  });
});
