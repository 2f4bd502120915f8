// Names that Object.prototype already has, used as data by volunteers (task keys, survey choices, answers)
// or by project owners (reducer keys): each must be an ordinary key, never Object's own property. On plain
// objects `constructor` found Object itself (an annotation grouping threw "push is not a function", a
// reduction context wrote its data into the global Object) and `__proto__` set a prototype.
import { describe, expect, it } from "vitest";
import { extract as extractWith, ZExtractorConfig } from "./extractors";
import { reduce } from "./reducers/reduce";
import { ZReducerConfig } from "./reducers/schemas";
import { evaluate } from "./conditions/evaluate";
import { reductionContext } from "./rules";
import { classification, extract } from "./testing";
import { groupAnnotations } from "./types";

const NAMES = ["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty", "prototype"];

it("an annotation whose task is no string or number (an object with its own toString) names no task", () => {
  const evil = { toString: "x", valueOf: "y" };
  expect(
    groupAnnotations([
      { task: evil, value: 1 },
      { task: ["T0"], value: 2 },
      { task: "T0", value: 3 },
      { task: 4, value: 5 },
    ]),
  ).toEqual({ T0: [{ task: "T0", value: 3 }], "4": [{ task: 4, value: 5 }] });
});

describe.each(NAMES)("the name %s", (name) => {
  it("is a task key like any other when annotations are grouped", () => {
    const grouped = groupAnnotations([
      { task: name, value: 1 },
      { task: name, value: 2 },
      { task: "T0", value: 0 },
    ]);
    expect(Object.keys(grouped).sort()).toEqual([name, "T0"].sort());
    expect(grouped[name]).toEqual([
      { task: name, value: 1 },
      { task: name, value: 2 },
    ]);
    expect(groupAnnotations([{ task: "T0", value: 0 }])[name]).toBeUndefined();
  });

  it("is a task key and a survey choice the extractors count", () => {
    const c = classification({
      annotations: groupAnnotations([{ task: name, value: [{ choice: name }, { choice: name }, { choice: "LION" }] }]),
    });
    const out = extractWith(ZExtractorConfig.parse({ type: "survey", task_key: name }), c);
    expect(out.kind).toBe("data");
    expect(JSON.parse(JSON.stringify(out.kind === "data" ? out.data : null))).toEqual({ [name]: 2, LION: 1 });
  });

  it("is a vote the consensus reducer counts, and a key the stats reducer sums", () => {
    const votes = [1, 2, 3].map((id) =>
      extract({ classificationId: id, extractorKey: "s", data: JSON.parse(JSON.stringify({ [name]: 1 })) }),
    );
    expect(reduce(ZReducerConfig.parse({ type: "consensus" }), votes, null).data).toEqual({
      most_likely: name,
      num_votes: 3,
      agreement: 1,
    });
    const sums = reduce(ZReducerConfig.parse({ type: "stats" }), votes, null).data;
    expect(JSON.parse(JSON.stringify(sums))).toEqual(JSON.parse(JSON.stringify({ [name]: 3 })));
  });

  it("is a reducer key and subgroup a rule looks up, leaving Object alone", () => {
    const before = Object.getOwnPropertyNames(Object).sort();
    const ctx = reductionContext([
      { reducer_key: name, subgroup: "_default", data: { keys: 4, assign: 5 } },
      { reducer_key: "c", subgroup: name, data: { n: 6 } },
    ]);
    expect(Object.getOwnPropertyNames(Object).sort()).toEqual(before);
    expect(typeof Object.keys).toBe("function");
    expect(evaluate(["lookup", `${name}.keys`], { reductions: ctx })).toBe(4);
    expect(evaluate(["lookup", `c.${name}.n`], { reductions: ctx })).toBe(6);
    expect(evaluate(["lookup", `${name}.missing`, 0], { reductions: reductionContext([]) })).toBe(0);
  });
});
