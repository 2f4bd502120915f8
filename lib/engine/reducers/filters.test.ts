import { describe, expect, it } from "vitest";
import { extract } from "../testing";
import type { ExtractRecord } from "../types";
import { filterExtracts, isTrainingSubject } from "./filters";
import { ZReducerFilters, type TReducerFilters } from "./schemas";

const ids = (es: ExtractRecord[]) => es.map((e) => e.id);
const filters = (f: Partial<TReducerFilters> = {}) => ({ filters: ZReducerFilters.parse(f) });

describe("order", () => {
  it("sorts by classification time, then classification id, then extract id", () => {
    const at = "2024-01-01T00:00:00Z";
    const es = [
      extract({ id: 4, classificationId: 9, classificationAt: "2024-01-02T00:00:00Z" }),
      extract({ id: 3, classificationId: 8, classificationAt: at }),
      extract({ id: 2, classificationId: 5, classificationAt: new Date(at) }),
      extract({ id: 1, classificationId: 5, classificationAt: at }),
    ];
    expect(ids(filterExtracts(filters({ repeated_classifications: "keep_all" }), es))).toEqual([1, 2, 3, 4]);
  });
  it("never mutates its input", () => {
    const es = [extract({ id: 2, classificationId: 2 }), extract({ id: 1, classificationId: 1 })];
    filterExtracts(filters(), es);
    expect(ids(es)).toEqual([2, 1]);
  });
});

describe("repeated classifications", () => {
  // User 1 classified subject 7 three times (c1, c3, c5), user 2 once (c2), anonymous twice (c4, c6);
  // user 1 also classified subject 8 (c7). Each classification has two extracts (q and s).
  const es = [1, 2, 3, 4, 5, 6, 7].flatMap((c) => {
    const userId = { 1: 1, 2: 2, 3: 1, 4: null, 5: 1, 6: null, 7: 1 }[c] as number | null;
    const subjectId = c === 7 ? 8 : 7;
    return ["q", "s"].map((k) => extract({ id: c * 10 + (k === "q" ? 1 : 2), classificationId: c, userId, subjectId, extractorKey: k }));
  });
  const classifications = (out: ExtractRecord[]) => [...new Set(out.map((e) => e.classificationId))];
  it.each([
    ["keep_first", [1, 2, 4, 6, 7]],
    ["keep_last", [2, 4, 5, 6, 7]],
    ["keep_all", [1, 2, 3, 4, 5, 6, 7]],
  ] as const)("%s keeps classifications %j (anonymous always kept, per subject)", (mode, expected) => {
    const out = filterExtracts(filters({ repeated_classifications: mode }), es);
    expect(classifications(out)).toEqual(expected);
    expect(out.length).toBe(expected.length * 2);
  });
  it("defaults to keep_first", () => {
    expect(classifications(filterExtracts({}, es))).toEqual([1, 2, 4, 6, 7]);
  });
});

describe("extractor keys", () => {
  const es = [
    extract({ id: 1, classificationId: 1, extractorKey: "q" }),
    extract({ id: 2, classificationId: 1, extractorKey: "s" }),
    extract({ id: 3, classificationId: 1, extractorKey: "f" }),
  ];
  it.each([
    [[], [1, 2, 3]],
    [["q"], [1]],
    [
      ["q", "f"],
      [1, 3],
    ],
    [["zzz"], []],
  ])("%j → %j", (keys, expected) => {
    expect(ids(filterExtracts(filters({ extractor_keys: keys }), es))).toEqual(expected);
  });
  it.each([
    ["a string", "s", [2]],
    ["blank", "", [1, 2, 3]],
    ["null", null, [1, 2, 3]],
  ])("unparsed %s", (_n, keys, expected) => {
    expect(ids(filterExtracts({ filters: { extractor_keys: keys } } as never, es))).toEqual(expected);
  });
});

describe("empty extracts", () => {
  const es = [
    extract({ id: 1, classificationId: 1, data: {} }),
    extract({ id: 2, classificationId: 2, data: null }),
    extract({ id: 3, classificationId: 3, data: { a: 0 } }),
  ];
  it.each([
    ["keep_all", [1, 2, 3]],
    ["ignore_empty", [3]],
  ] as const)("%s", (mode, expected) => {
    expect(ids(filterExtracts(filters({ empty_extracts: mode }), es))).toEqual(expected);
  });
});

describe("training behaviour", () => {
  const metadata = new Map<number, Record<string, unknown>>([
    [1, { "#training_subject": true }],
    [2, { "#training_subject": "true" }],
    [3, { "#training_subject": "false" }],
    [4, {}],
  ]);
  const es = [1, 2, 3, 4, 5].map((s) => extract({ id: s, classificationId: s, subjectId: s }));
  it.each([
    ["ignore_training", [1, 2, 3, 4, 5]],
    ["training_only", [1, 2]],
    ["experiment_only", [3, 4, 5]],
  ] as const)("%s", (mode, expected) => {
    expect(ids(filterExtracts(filters({ training_behavior: mode }), es, metadata))).toEqual(expected);
  });
  it.each([
    [{ "#training_subject": true }, true],
    [{ "#training_subject": "TRUE" }, true],
    [{ "#training_subject": "1" }, false],
    [{ "#training_subject": false }, false],
    [undefined, false],
  ])("isTrainingSubject(%j) = %s", (m, expected) => {
    expect(isTrainingSubject(m)).toBe(expected);
  });
});

describe("from / to (inclusive, by classification)", () => {
  // Six classifications, two extracts each: the range counts classifications, not extracts.
  const es = [1, 2, 3, 4, 5, 6].flatMap((c) => [
    extract({ id: c * 10, classificationId: c }),
    extract({ id: c * 10 + 1, classificationId: c, extractorKey: "s" }),
  ]);
  const cls = (out: ExtractRecord[]) => [...new Set(out.map((e) => e.classificationId))];
  it.each([
    [0, -1, [1, 2, 3, 4, 5, 6]],
    [0, 0, [1]],
    [0, 2, [1, 2, 3]],
    [2, -1, [3, 4, 5, 6]],
    [5, -1, [6]],
    [6, -1, []],
    [-2, -1, [5, 6]],
    [0, -2, [1, 2, 3, 4, 5]],
    [-3, -2, [4, 5]],
    [3, 1, []],
    [0, 100, [1, 2, 3, 4, 5, 6]],
    [-100, 1, [1, 2]],
  ])("from %i to %i → %j", (from, to, expected) => {
    const out = filterExtracts(filters({ from, to, repeated_classifications: "keep_all" }), es);
    expect(cls(out)).toEqual(expected);
    expect(out.length).toBe(expected.length * 2);
  });
  it("applies after the other filters", () => {
    const mixed = [
      extract({ id: 1, classificationId: 1, data: null }),
      extract({ id: 2, classificationId: 2, data: { a: 1 } }),
      extract({ id: 3, classificationId: 3, data: { a: 1 } }),
    ];
    expect(ids(filterExtracts(filters({ empty_extracts: "ignore_empty", from: 0, to: 0 }), mixed))).toEqual([2]);
  });
});
