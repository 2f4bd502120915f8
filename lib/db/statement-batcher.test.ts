// The batching policy on its own (the statements are stand-ins that end when the test says): which items
// share a statement, in what order, how many run at once, and what a failed statement does to its items.
// Against PostgreSQL: lib/domain/create-batch.int.test.ts.
import { describe, expect, it } from "vitest";
import { statementBatcher } from "./statement-batcher";

interface Item {
  name: string;
  keys?: string[];
  /** The statement fails when it carries this item. */
  bad?: boolean;
}

/** A batcher whose statements wait until release(); records each statement's items. */
function harness(maxInFlight: number, maxBatch: number) {
  const statements: string[][] = [];
  const waiting: (() => void)[] = [];
  let running = 0;
  let most = 0;
  const b = statementBatcher<Item, string>({
    maxInFlight,
    maxBatch,
    keys: (i) => i.keys ?? [],
    run: async (items) => {
      statements.push(items.map((i) => i.name));
      most = Math.max(most, ++running);
      await new Promise<void>((r) => waiting.push(r));
      running--;
      if (items.some((i) => i.bad)) throw new Error(`bad item among ${items.map((i) => i.name).join(",")}`);
      return items.map((i) => `done ${i.name}`);
    },
  });
  const settle = async () => {
    for (let n = 0; n < 100 && (waiting.length || running); n++) {
      for (const r of waiting.splice(0)) r();
      await new Promise((r) => setTimeout(r, 0));
    }
  };
  return { b, statements, settle, most: () => most };
}

describe("statementBatcher", () => {
  it.each([
    {
      name: "a lone item goes at once, alone",
      maxInFlight: 2,
      maxBatch: 10,
      items: [{ name: "a" }],
      statements: [["a"]],
    },
    {
      name: "items arriving while the statements in flight run go together",
      maxInFlight: 2,
      maxBatch: 10,
      items: [{ name: "a" }, { name: "b" }, { name: "c" }, { name: "d" }, { name: "e" }],
      statements: [["a"], ["b"], ["c", "d", "e"]],
    },
    {
      name: "a statement carries at most maxBatch items",
      maxInFlight: 1,
      maxBatch: 2,
      items: [{ name: "a" }, { name: "b" }, { name: "c" }, { name: "d" }, { name: "e" }],
      statements: [["a"], ["b", "c"], ["d", "e"]],
    },
    {
      name: "items whose keys meet never share a statement; the later waits, and so does what meets it",
      maxInFlight: 1,
      maxBatch: 10,
      items: [
        { name: "a" },
        { name: "b", keys: ["s1"] },
        { name: "c", keys: ["s2"] },
        { name: "d", keys: ["s1", "s3"] },
        { name: "e", keys: ["s3"] },
        { name: "f" },
      ],
      statements: [["a"], ["b", "c", "f"], ["d"], ["e"]],
    },
    {
      name: "an item never overtakes an earlier waiting item it meets (a retry stays behind the original)",
      maxInFlight: 1,
      maxBatch: 10,
      items: [
        { name: "a" },
        { name: "b", keys: ["s1"] },
        { name: "c", keys: ["s1", "k1"] },
        { name: "d", keys: ["k1"] },
        { name: "e", keys: ["s3"] },
      ],
      statements: [["a"], ["b", "e"], ["c"], ["d"]],
    },
    {
      name: "an item waits while a statement in flight meets it; others go meanwhile",
      maxInFlight: 2,
      maxBatch: 10,
      items: [
        { name: "a", keys: ["s1"] },
        { name: "b", keys: ["s1"] },
        { name: "c", keys: ["s2"] },
        { name: "d", keys: ["s2", "s3"] },
      ],
      statements: [["a"], ["c"], ["b"], ["d"]],
    },
    {
      name: "an item with several keys takes them all",
      maxInFlight: 1,
      maxBatch: 10,
      items: [{ name: "a" }, { name: "b", keys: ["s1", "k1"] }, { name: "c", keys: ["k1"] }, { name: "d", keys: ["s2"] }],
      statements: [["a"], ["b", "d"], ["c"]],
    },
  ])("$name", async ({ maxInFlight, maxBatch, items, statements: expected }) => {
    const { b, statements, settle, most } = harness(maxInFlight, maxBatch);
    const answers = Promise.all(items.map((i) => b.submit(i)));
    await settle();
    expect(await answers).toEqual(items.map((i) => `done ${i.name}`));
    expect(statements).toEqual(expected);
    expect(most()).toBeLessThanOrEqual(maxInFlight);
    expect(b.stats()).toEqual({
      statements: expected.length,
      items: items.length,
      largest: Math.max(...expected.map((s) => s.length)),
      failedGroups: 0,
    });
  });

  it("tries each item of a failed statement again alone: only the item at fault fails", async () => {
    const { b, statements, settle } = harness(1, 10);
    const items: Item[] = [{ name: "a" }, { name: "b" }, { name: "c", bad: true }, { name: "d" }];
    const answers = Promise.allSettled(items.map((i) => b.submit(i)));
    await settle();
    const settled = await answers;
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect((settled[2] as PromiseRejectedResult).reason.message).toBe("bad item among c");
    expect(statements).toEqual([["a"], ["b", "c", "d"], ["b"], ["c"], ["d"]]);
    expect(b.stats().failedGroups).toBe(1);
  });

  it("treats a statement answering the wrong number of rows as failed", async () => {
    let calls = 0;
    const b = statementBatcher<string, string>({
      maxInFlight: 1,
      maxBatch: 10,
      keys: () => [],
      run: async (items) => (++calls === 2 ? items.slice(1) : items),
    });
    const answers = await Promise.all(["a", "b", "c"].map((i) => b.submit(i)));
    expect(answers).toEqual(["a", "b", "c"]);
    expect(b.stats()).toMatchObject({ statements: 4, failedGroups: 1 });
  });

  it.each([
    [0, 1],
    [1, 0],
    [NaN, 5],
  ])("refuses maxInFlight %s, maxBatch %s", (maxInFlight, maxBatch) => {
    expect(() => statementBatcher({ maxInFlight, maxBatch, keys: () => [], run: async () => [] })).toThrow(/at least 1/);
  });
});
