import { describe, expect, it } from "vitest";
import { extract } from "../testing";
import type { ExtractRecord } from "../types";
import { consensusKey } from "./consensus";
import { dbscan } from "./rectangle";
import { reduce } from "./reduce";
import { reducers } from "./registry";
import { externalReducerRequest } from "./external";
import { queueMessages } from "./queue";
import { ZReducerConfig } from "./schemas";

const cfg = (c: object) => ZReducerConfig.parse(c);
const defaultReduce = (c: object, es: ExtractRecord[]) => reduce(cfg(c), es, null).data;
/** Running reduce over the extracts in batches, each call seeing everything so far plus the incorporated ids. */
function runningInBatches(c: object, es: ExtractRecord[], batchSizes: number[]) {
  const config = cfg({ ...c, reduction_mode: "running_reduction" });
  type Previous = { data: Record<string, unknown>; store: Record<string, unknown> | null; incorporatedExtractIds: number[] };
  let previous = null as Previous | null;
  let seen = 0;
  for (const size of batchSizes) {
    seen += size;
    const out = reduce(config, es.slice(0, seen), previous);
    previous = {
      data: out.data,
      store: out.store,
      incorporatedExtractIds: [...(previous?.incorporatedExtractIds ?? []), ...out.incorporatedExtractIds],
    };
  }
  return previous!.data;
}
const q = (classificationId: number, data: Record<string, unknown> | null, extra: Partial<ExtractRecord> = {}) =>
  extract({ classificationId, data, extractorKey: "q", ...extra });

describe("consensus", () => {
  it.each([
    [{ "1": 1 }, "1"],
    [{ "0": 1, "2": 1 }, "0+2"],
    [{ ZEBRA: 1, LION: 2 }, "LION+ZEBRA"],
    [{ "0": 0, "1": 1 }, "1"],
    [{ blank: true }, "blank"],
    [{ blank: false }, null],
    [{}, null],
    [null, null],
  ])("key of %j is %j", (data, key) => {
    expect(consensusKey(data)).toBe(key);
  });

  const votes = [q(1, { "1": 1 }), q(2, { "0": 1 }), q(3, { "1": 1 }), q(4, {}), q(5, { "1": 1 })];
  it.each([
    ["no extracts", [], { num_votes: 0 }],
    ["only empty extracts", [q(1, {}), q(2, null)], { num_votes: 0 }],
    ["majority", votes, { most_likely: "1", num_votes: 3, agreement: 3 / 5 }],
    ["unanimous", [q(1, { a: 1 }), q(2, { a: 1 })], { most_likely: "a", num_votes: 2, agreement: 1 }],
    ["tie → first key in code-unit order", [q(1, { b: 1 }), q(2, { a: 1 })], { most_likely: "a", num_votes: 1, agreement: 0.5 }],
    ["tie regardless of order", [q(1, { a: 1 }), q(2, { b: 1 }), q(3, { B: 1 })], { most_likely: "B", num_votes: 1, agreement: 1 / 3 }],
    [
      "two extracts of one classification count one classification",
      [q(1, { a: 1 }), q(1, { a: 1 }, { extractorKey: "s" })],
      { most_likely: "a", num_votes: 2, agreement: 2 },
    ],
  ])("%s", (_n, es, expected) => {
    expect(defaultReduce({ type: "consensus" }, es)).toEqual(expected);
  });
  it.each([[[5]], [[1, 1, 1, 1, 1]], [[2, 3]], [[4, 1]]])("running in batches %j equals default", (batches) => {
    expect(runningInBatches({ type: "consensus" }, votes, batches)).toEqual(defaultReduce({ type: "consensus" }, votes));
  });
});

describe("count", () => {
  const es = [q(1, { a: 1 }), q(1, { b: 1 }, { extractorKey: "s" }), q(2, {}), q(3, null)];
  it.each([
    ["none", [], { classifications: 0, extracts: 0 }],
    ["several", es, { classifications: 3, extracts: 4 }],
  ])("%s", (_n, input, expected) => {
    expect(defaultReduce({ type: "count" }, input)).toEqual(expected);
  });
  it.each([[[4]], [[1, 1, 1, 1]], [[1, 3]], [[3, 1]]])(
    "running in batches %j equals default (a classification split across batches counts once)",
    (batches) => {
      expect(runningInBatches({ type: "count" }, es, batches)).toEqual({ classifications: 3, extracts: 4 });
    },
  );
});

describe("stats", () => {
  const es = [q(1, { a: 1, b: true }), q(2, { a: 2, b: false, c: "x" }), q(3, { a: 0.5, d: 3 }), q(4, null)];
  it.each([
    ["none", [], {}],
    ["sums; true 1, false 0; strings ignored", es, { a: 3.5, b: 1, d: 3 }],
    ["all false", [q(1, { b: false }), q(2, { b: false })], { b: 0 }],
  ])("%s", (_n, input, expected) => {
    expect(defaultReduce({ type: "stats" }, input)).toEqual(expected);
  });
  it.each([[[4]], [[1, 1, 1, 1]], [[2, 2]]])("running in batches %j equals default", (batches) => {
    expect(runningInBatches({ type: "stats" }, es, batches)).toEqual({ a: 3.5, b: 1, d: 3 });
  });
});

describe("first_extract", () => {
  it.each([
    ["none", [], {}],
    ["first of several", [q(1, { a: 1 }), q(2, { a: 2 })], { a: 1 }],
    ["first is null data", [q(1, null), q(2, { a: 2 })], {}],
  ])("%s", (_n, input, expected) => {
    expect(defaultReduce({ type: "first_extract" }, input)).toEqual(expected);
  });
  it("running keeps the first ever", () => {
    expect(runningInBatches({ type: "first_extract" }, [q(1, { a: 1 }), q(2, { a: 2 }), q(3, { a: 3 })], [1, 1, 1])).toEqual({ a: 1 });
    expect(runningInBatches({ type: "first_extract" }, [q(1, { a: 1 }), q(2, { a: 2 })], [2])).toEqual({ a: 1 });
  });
});

describe("summary_stats", () => {
  const f = (classificationId: number, size: unknown) => extract({ classificationId, extractorKey: "f", data: { size } });
  const es = [f(1, "2"), f(2, 4), f(3, "4"), f(4, 10), f(5, "n/a"), f(6, null), q(7, { size: 100 })];
  const all = ["count", "min", "max", "sum", "mean", "variance", "stdev", "median", "mode"];
  it("computes every operation over numbers and numeric strings of its extractor only", () => {
    expect(defaultReduce({ type: "summary_stats", summarize_field: "f.size", operations: all }, es)).toEqual({
      count: 4,
      min: 2,
      max: 10,
      sum: 20,
      mean: 5,
      variance: 9,
      stdev: 3,
      median: 4,
      mode: 4,
    });
  });
  it.each([
    [["mean", "max"], { mean: 5, max: 10 }],
    [["median"], { median: 4 }],
    [["count"], { count: 4 }],
  ])("operations %j", (operations, expected) => {
    expect(defaultReduce({ type: "summary_stats", summarize_field: "f.size", operations }, es)).toEqual(expected);
  });
  it.each([
    ["odd median", [1, 3, 2], { median: 2, mode: 1 }],
    ["even median, mode tie → smallest", [4, 1, 3, 2], { median: 2.5, mode: 1 }],
    ["array values count each", [[1, 2], [2]], { median: 2, mode: 2 }],
  ])("%s", (_n, values, expected) => {
    const input = values.map((v, i) => f(i + 1, v));
    expect(defaultReduce({ type: "summary_stats", summarize_field: "f.size", operations: ["median", "mode"] }, input)).toEqual(expected);
  });
  it("with no values: count 0, sum 0, others null", () => {
    expect(
      defaultReduce({ type: "summary_stats", summarize_field: "f.size", operations: ["count", "sum", "mean", "min", "stdev"] }, []),
    ).toEqual({ count: 0, sum: 0, mean: null, min: null, stdev: null });
  });
  it("reads nested fields", () => {
    expect(
      defaultReduce({ type: "summary_stats", summarize_field: "f.a.b", operations: ["sum"] }, [
        extract({ classificationId: 1, extractorKey: "f", data: { a: { b: 3 } } }),
      ]),
    ).toEqual({ sum: 3 });
  });
  it.each([[[7]], [[1, 1, 1, 1, 1, 1, 1]], [[3, 4]]])("running (Welford) in batches %j equals default", (batches) => {
    const ops = ["count", "min", "max", "sum", "mean", "variance", "stdev"];
    const running = runningInBatches({ type: "summary_stats", summarize_field: "f.size", operations: ops }, es, batches) as Record<
      string,
      number
    >;
    const expected = defaultReduce({ type: "summary_stats", summarize_field: "f.size", operations: ops }, es) as Record<string, number>;
    for (const op of ops) expect(running[op]).toBeCloseTo(expected[op], 10);
  });
});

describe("unique_count", () => {
  const u = (classificationId: number, v: unknown) => extract({ classificationId, extractorKey: "f", data: { v } });
  const es = [
    u(1, "a"),
    u(2, "b"),
    u(3, "a"),
    u(4, 1),
    u(5, "1"),
    u(6, ["b", "c"]),
    u(7, null),
    u(8, { x: 1, y: 2 }),
    u(9, { y: 2, x: 1 }),
    q(10, { v: "zzz" }),
  ];
  it("counts distinct values without coercion, in first-seen order", () => {
    expect(defaultReduce({ type: "unique_count", field: "f.v" }, es)).toEqual({
      unique_count: 6,
      values: ["a", "b", 1, "1", "c", { x: 1, y: 2 }],
    });
  });
  it("none", () => {
    expect(defaultReduce({ type: "unique_count", field: "f.v" }, [])).toEqual({ unique_count: 0, values: [] });
  });
  it.each([[[10]], [[1, 1, 1, 1, 1, 1, 1, 1, 1, 1]], [[5, 5]]])("running in batches %j equals default", (batches) => {
    expect(runningInBatches({ type: "unique_count", field: "f.v" }, es, batches)).toEqual(
      defaultReduce({ type: "unique_count", field: "f.v" }, es),
    );
  });
});

describe("rectangle", () => {
  it.each([
    [
      "two tight clusters and noise",
      [
        [0, 0],
        [1, 0],
        [0, 1],
        [10, 10],
        [11, 10],
        [50, 50],
      ],
      2,
      2,
      [0, 0, 0, 1, 1, -1],
    ],
    [
      "min_samples 1: every point a cluster",
      [
        [0, 0],
        [100, 100],
      ],
      2,
      1,
      [0, 1],
    ],
    [
      "min_samples too high: all noise",
      [
        [0, 0],
        [1, 0],
      ],
      2,
      3,
      [-1, -1],
    ],
    [
      "chain reaches through core points",
      [
        [0, 0],
        [2, 0],
        [4, 0],
        [6, 0],
      ],
      2,
      2,
      [0, 0, 0, 0],
    ],
    [
      "distance exactly eps is a neighbour",
      [
        [0, 0],
        [3, 4],
      ],
      5,
      2,
      [0, 0],
    ],
    [
      "border point joins the cluster",
      [
        [0, 0],
        [1, 0],
        [2, 0],
        [4, 0],
      ],
      2,
      3,
      [0, 0, 0, 0],
    ],
  ])("dbscan: %s", (_n, points, eps, minSamples, labels) => {
    expect(dbscan(points, eps, minSamples)).toEqual(labels);
  });

  const rects = (classificationId: number, ...rs: number[][]) =>
    extract({
      id: classificationId,
      classificationId,
      extractorKey: "r",
      data: {
        T0_tool0_x: rs.map((r) => r[0]),
        T0_tool0_y: rs.map((r) => r[1]),
        T0_tool0_width: rs.map((r) => r[2]),
        T0_tool0_height: rs.map((r) => r[3]),
        T0_tool0_angle: rs.map(() => 0),
      },
    });
  it("clusters rectangles from several extracts", () => {
    const es = [rects(1, [10, 10, 20, 20], [100, 100, 5, 5]), rects(2, [12, 10, 20, 22]), rects(3, [10, 12, 20, 20], [300, 0, 1, 1])];
    expect(defaultReduce({ type: "rectangle" }, es)).toEqual({
      T0_tool0_rec_x: [10, 100, 12, 10, 300],
      T0_tool0_rec_y: [10, 100, 10, 12, 0],
      T0_tool0_rec_width: [20, 5, 20, 20, 1],
      T0_tool0_rec_height: [20, 5, 22, 20, 1],
      T0_tool0_rec_extract_ids: [1, 1, 2, 3, 3],
      T0_tool0_cluster_labels: [0, -1, 0, 0, -1],
      T0_tool0_clusters_count: [3],
      T0_tool0_clusters_x: [32 / 3],
      T0_tool0_clusters_y: [32 / 3],
      T0_tool0_clusters_width: [20],
      T0_tool0_clusters_height: [62 / 3],
    });
  });
  it("uses eps and min_samples", () => {
    const es = [rects(1, [0, 0, 10, 10]), rects(2, [20, 0, 10, 10])];
    expect(defaultReduce({ type: "rectangle", eps: 25, min_samples: 2 }, es)).toMatchObject({
      T0_tool0_cluster_labels: [0, 0],
      T0_tool0_clusters_x: [10],
    });
    expect(defaultReduce({ type: "rectangle" }, es)).toMatchObject({ T0_tool0_cluster_labels: [-1, -1], T0_tool0_clusters_count: [] });
  });
  it("no rectangles → empty data", () => {
    expect(defaultReduce({ type: "rectangle" }, [q(1, { "0": 1 })])).toEqual({});
  });
  it("refuses running mode", () => {
    expect(ZReducerConfig.safeParse({ type: "rectangle", reduction_mode: "running_reduction" }).success).toBe(false);
  });
});

describe("queue", () => {
  const config = { type: "queue", queue_url: "https://queue.example.org", queue_name: "extracts" };
  const es = [
    extract({ id: 5, classificationId: 1, classificationAt: "2024-03-01T00:00:00Z", userId: 9, extractorKey: "q", data: { "1": 1 } }),
  ];
  it("messages carry each extract in the wire shape", () => {
    const wire = {
      id: 5,
      classification_id: 1,
      classification_at: "2024-03-01T00:00:00.000Z",
      subject_id: 7,
      user_id: 9,
      workflow_id: 12,
      extractor_key: "q",
      data: { "1": 1 },
    };
    expect(queueMessages(cfg(config) as never, es)).toEqual([
      { queue_url: "https://queue.example.org", queue_name: "extracts", body: wire },
    ]);
    expect(defaultReduce(config, es)).toEqual({ messages: [wire] });
  });
  it("running mode delivers only new extracts", () => {
    const two = [...es, extract({ id: 6, classificationId: 2, data: {} })];
    const first = reduce(cfg({ ...config, reduction_mode: "running_reduction" }), es, null);
    const second = reduce(cfg({ ...config, reduction_mode: "running_reduction" }), two, { ...first, incorporatedExtractIds: [5] });
    expect((second.data.messages as { id: number }[]).map((m) => m.id)).toEqual([6]);
  });
});

describe("external", () => {
  it("builds the request", () => {
    const es = [extract({ id: 5, classificationId: 1, classificationAt: "2024-03-01T00:00:00Z", data: { a: 1 } })];
    expect(externalReducerRequest({ url: "https://r.example.org", topic: "reduce_by_user" }, es, 42)).toEqual({
      url: "https://r.example.org",
      body: {
        id: 42,
        topic: "reduce_by_user",
        extracts: [
          {
            id: 5,
            classification_id: 1,
            classification_at: "2024-03-01T00:00:00.000Z",
            subject_id: 7,
            user_id: null,
            workflow_id: 12,
            extractor_key: "q",
            data: { a: 1 },
          },
        ],
      },
    });
  });
  it("is never reduced in-process", () => {
    expect(() => reduce(cfg({ type: "external", url: "https://r.example.org" }), [], null)).toThrow(/external/);
  });
});

describe("registry", () => {
  it("every reducer documents its output and has a schema", () => {
    for (const [type, def] of Object.entries(reducers)) {
      expect(def.output, type).toMatch(/\S/);
      expect(
        def.schema.safeParse({ type }).success ||
          type === "summary_stats" ||
          type === "unique_count" ||
          type === "queue" ||
          type === "external",
      ).toBe(true);
    }
  });
});
