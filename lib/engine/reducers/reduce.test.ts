import { describe, expect, it } from "vitest";
import { extract } from "../testing";
import { isEmptyReduction } from "./reducer";
import { newExtractsFor, reduce } from "./reduce";
import { ZReducerConfig } from "./schemas";

const running = ZReducerConfig.parse({ type: "count", reduction_mode: "running_reduction" });
const e1 = extract({ id: 1, classificationId: 1, data: { a: 1 } });
const e2 = extract({ id: 2, classificationId: 2, data: { a: 1 } });

describe("running reduction never applies an extract twice", () => {
  it("reduce over [e1], then over [e1, e2] with e1 incorporated counts e2 once", () => {
    const first = reduce(running, [e1], null);
    expect(first).toEqual({
      data: { classifications: 1, extracts: 1 },
      store: { classifications: 1, extracts: 1, classification_ids: [1] },
      incorporatedExtractIds: [1],
    });
    const second = reduce(running, [e1, e2], { data: first.data, store: first.store, incorporatedExtractIds: new Set([1]) });
    expect(second.data).toEqual({ classifications: 2, extracts: 2 });
    expect(second.incorporatedExtractIds).toEqual([2]);
  });
  it("with nothing new returns the previous reduction unchanged", () => {
    const first = reduce(running, [e1], null);
    expect(reduce(running, [e1], { ...first, incorporatedExtractIds: [1] })).toEqual({
      data: first.data,
      store: first.store,
      incorporatedExtractIds: [],
    });
  });
  it("an extract listed twice in one call is applied once", () => {
    expect(reduce(running, [e1, e1, e2], null).data).toEqual({ classifications: 2, extracts: 2 });
  });
  it("stats running twice does not double-count", () => {
    const stats = ZReducerConfig.parse({ type: "stats", reduction_mode: "running_reduction" });
    const first = reduce(stats, [e1], null);
    expect(reduce(stats, [e1, e2], { ...first, incorporatedExtractIds: first.incorporatedExtractIds }).data).toEqual({ a: 2 });
  });
});

describe("default reduction", () => {
  it("re-reduces everything and ignores the previous reduction", () => {
    const count = ZReducerConfig.parse({ type: "count" });
    expect(reduce(count, [e1, e2], { data: { classifications: 99 }, store: { x: 1 } })).toEqual({
      data: { classifications: 2, extracts: 2 },
      store: null,
      incorporatedExtractIds: [1, 2],
    });
  });
  it("refuses running mode for a type without runningReduce", () => {
    expect(() => reduce({ type: "rectangle", reduction_mode: "running_reduction" }, [e1], null)).toThrow(/running_reduction/);
    expect(() => reduce({ type: "nope" }, [e1], null)).toThrow(/unknown reducer type/);
  });
});

describe("newExtractsFor", () => {
  it.each([
    [[], [1, 2]],
    [[1], [2]],
    [[1, 2], []],
    [[3], [1, 2]],
  ])("incorporated %j → %j", (incorporated, expected) => {
    expect(newExtractsFor([e1, e2], new Set(incorporated)).map((e) => e.id)).toEqual(expected);
  });
});

describe("isEmptyReduction", () => {
  it.each([
    [null, true],
    [undefined, true],
    [{}, true],
    [{ num_votes: 0 }, false],
    [{ a: null }, false],
  ])("%j → %s", (data, expected) => {
    expect(isEmptyReduction(data)).toBe(expected);
  });
});
