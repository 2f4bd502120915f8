import { describe, expect, it } from "vitest";
import { extract } from "../testing";
import type { ExtractRecord } from "../types";
import { groupExtracts, GroupingError, selectExtracts } from "./grouping";
import { ZReducerFilters, ZReducerGrouping } from "./schemas";

// Classification 1 (name alpha), 2 (name beta), 3 (name alpha), 4 (no name), 5 (no f extract).
const es: ExtractRecord[] = [
  extract({ id: 11, classificationId: 1, extractorKey: "q", data: { "0": 1 } }),
  extract({ id: 12, classificationId: 1, extractorKey: "f", data: { name: "alpha" } }),
  extract({ id: 21, classificationId: 2, extractorKey: "q", data: { "1": 1 } }),
  extract({ id: 22, classificationId: 2, extractorKey: "f", data: { name: "beta" } }),
  extract({ id: 31, classificationId: 3, extractorKey: "q", data: { "0": 1 } }),
  extract({ id: 32, classificationId: 3, extractorKey: "f", data: { name: "alpha" } }),
  extract({ id: 41, classificationId: 4, extractorKey: "q", data: { "1": 1 } }),
  extract({ id: 42, classificationId: 4, extractorKey: "f", data: { name: null } }),
  extract({ id: 51, classificationId: 5, extractorKey: "q", data: { "0": 1 } }),
];
const asIds = (m: Map<string, ExtractRecord[]>) => Object.fromEntries([...m].map(([k, v]) => [k, v.map((e) => e.id)]));
const grouping = (g: object) => ({ grouping: ZReducerGrouping.parse(g) });

describe("groupExtracts", () => {
  it("without grouping puts everything in _default", () => {
    expect(asIds(groupExtracts({}, es))).toEqual({ _default: es.map((e) => e.id) });
    expect(asIds(groupExtracts({}, []))).toEqual({ _default: [] });
  });
  it.each([
    ["ignore (default)", {}, { alpha: [11, 12, 31, 32], beta: [21, 22] }],
    ["group_missing", { if_missing: "group_missing" }, { alpha: [11, 12, 31, 32], beta: [21, 22], _missing: [41, 42, 51] }],
  ])("missing field: %s", (_n, extra, expected) => {
    expect(asIds(groupExtracts(grouping({ field_name: "f.name", ...extra }), es))).toEqual(expected);
  });
  it("missing field: error throws", () => {
    expect(() => groupExtracts(grouping({ field_name: "f.name", if_missing: "error" }), es)).toThrow(GroupingError);
    expect(() => groupExtracts(grouping({ field_name: "f.name", if_missing: "error" }), es.slice(0, 6))).not.toThrow();
  });
  it("reads nested fields and names non-string values as JSON", () => {
    const nested = [
      extract({ id: 1, classificationId: 1, extractorKey: "f", data: { a: { b: 2 } } }),
      extract({ id: 2, classificationId: 2, extractorKey: "f", data: { a: { b: true } } }),
    ];
    expect(asIds(groupExtracts(grouping({ field_name: "f.a.b" }), nested))).toEqual({ "2": [1], true: [2] });
  });
  it("finds grouping values in the context when the extracts were filtered to other extractors", () => {
    const onlyQ = es.filter((e) => e.extractorKey === "q");
    expect(asIds(groupExtracts(grouping({ field_name: "f.name" }), onlyQ))).toEqual({});
    expect(asIds(groupExtracts(grouping({ field_name: "f.name" }), onlyQ, es))).toEqual({ alpha: [11, 31], beta: [21] });
  });
});

describe("selectExtracts (group, then filter each group)", () => {
  it("groups by an extractor the filters exclude, then filters and ranges per group", () => {
    const config = {
      ...grouping({ field_name: "f.name" }),
      filters: ZReducerFilters.parse({ extractor_keys: ["q"], repeated_classifications: "keep_all", to: 0 }),
    };
    expect(asIds(selectExtracts(config, es))).toEqual({ alpha: [11], beta: [21] });
  });
});
