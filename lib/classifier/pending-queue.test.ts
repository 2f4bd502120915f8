import { describe, expect, it } from "vitest";
import {
  backoffMs,
  dueItems,
  MemoryStore,
  newPendingItem,
  outcomeOf,
  PendingQueue,
  type PendingItem,
  type SendResult,
} from "./pending-queue";

describe("outcomeOf", () => {
  it.each<[SendResult, string]>([
    [{ status: 201 }, "stored"],
    [{ status: 200 }, "stored"],
    [{ networkError: "Failed to fetch" }, "retry"],
    [{ status: 500 }, "retry"],
    [{ status: 503 }, "retry"],
    [{ status: 429 }, "retry"],
    [{ status: 408 }, "retry"],
    [{ status: 422 }, "refused"],
    [{ status: 400 }, "refused"],
    [{ status: 403 }, "refused"],
    [{ status: 404 }, "refused"],
  ])("%j → %s", (result, outcome) => expect(outcomeOf(result)).toBe(outcome));
});

describe("backoffMs", () => {
  it.each([
    [1, 2_000],
    [2, 4_000],
    [3, 8_000],
    [8, 256_000],
    [9, 300_000],
    [50, 300_000],
  ])("after %i attempts waits %i ms", (n, ms) => expect(backoffMs(n)).toBe(ms));
});

describe("dueItems", () => {
  const item = (id: string, nextAttemptAt: number, extra: Partial<PendingItem> = {}): PendingItem => ({
    id,
    body: {},
    createdAt: nextAttemptAt,
    attempts: 0,
    nextAttemptAt,
    ...extra,
  });
  const items = [item("late", 200), item("due", 50), item("refused", 0, { refused: "bad" })];
  it("skips refused and not-yet-due items, oldest first", () => expect(dueItems(items, 100).map((i) => i.id)).toEqual(["due"]));
  it("a manual retry sends every unrefused item", () => expect(dueItems(items, 100, true).map((i) => i.id)).toEqual(["due", "late"]));
});

function setup(responses: SendResult[]) {
  const store = new MemoryStore();
  const sent: string[] = [];
  let now = 1_000;
  const q = new PendingQueue(
    store,
    async (i) => {
      sent.push(i.id);
      return responses.shift() ?? { status: 201 };
    },
    () => now,
  );
  return { store, sent, q, tick: (ms: number) => (now += ms) };
}

describe("PendingQueue", () => {
  it("removes an item after a 2xx, exactly once", async () => {
    const { store, sent, q } = setup([{ status: 201 }]);
    await q.add(newPendingItem({ a: 1 }, 1_000, "a"));
    await q.flush();
    await q.flush();
    expect(sent).toEqual(["a"]);
    expect(store.items.size).toBe(0);
  });

  it("keeps an item on a network error with backoff, and stops the round there", async () => {
    const { store, sent, q, tick } = setup([{ networkError: "offline" }]);
    await q.add(newPendingItem({}, 1_000, "a"));
    await q.add(newPendingItem({}, 1_001, "b"));
    tick(10);
    await q.flush();
    expect(sent).toEqual(["a"]);
    expect(store.items.get("a")).toMatchObject({ attempts: 1, nextAttemptAt: 1_010 + 2_000, lastError: "offline" });
    // a is not due yet; b is sent.
    await q.flush();
    expect(sent).toEqual(["a", "b"]);
    tick(2_000);
    await q.flush();
    expect(sent).toEqual(["a", "b", "a"]);
    expect(store.items.size).toBe(0);
  });

  it("retries 5xx with growing delays and continues with the next item", async () => {
    const { store, sent, q, tick } = setup([{ status: 503 }, { status: 201 }, { status: 500 }]);
    await q.add(newPendingItem({}, 1_000, "a"));
    await q.add(newPendingItem({}, 1_001, "b"));
    tick(5);
    await q.flush();
    expect(sent).toEqual(["a", "b"]);
    expect([...store.items.keys()]).toEqual(["a"]);
    tick(2_000);
    await q.flush();
    expect(store.items.get("a")).toMatchObject({ attempts: 2, nextAttemptAt: 1_000 + 5 + 2_000 + 4_000 });
    expect(await q.nextDue()).toBe(7_005);
  });

  it("marks a 4xx as refused, never resends it, and lets the volunteer dismiss it", async () => {
    const { store, sent, q, tick } = setup([{ status: 422, message: "subject not in workflow" }]);
    await q.add(newPendingItem({}, 1_000, "a"));
    await q.flush();
    tick(1_000_000);
    await q.flush(true);
    expect(sent).toEqual(["a"]);
    expect(store.items.get("a")).toMatchObject({ refused: "subject not in workflow", attempts: 1 });
    expect(await q.nextDue()).toBeNull();
    await q.dismiss("a");
    expect(store.items.size).toBe(0);
  });

  it("joins a flush already running instead of sending twice", async () => {
    const store = new MemoryStore();
    let release!: () => void;
    const sent: string[] = [];
    const q = new PendingQueue(store, async (i) => {
      sent.push(i.id);
      await new Promise<void>((r) => (release = r));
      return { status: 201 };
    });
    await q.add(newPendingItem({}, 0, "a"));
    const first = q.flush();
    const second = q.flush(true);
    await new Promise((r) => setTimeout(r, 0));
    release();
    await Promise.all([first, second]);
    expect(sent).toEqual(["a"]);
    expect(store.items.size).toBe(0);
  });

  it("treats a thrown send as a network error", async () => {
    const store = new MemoryStore();
    const q = new PendingQueue(
      store,
      async () => {
        throw new Error("Failed to fetch");
      },
      () => 0,
    );
    await q.add(newPendingItem({}, 0, "a"));
    await q.flush();
    expect(store.items.get("a")).toMatchObject({ attempts: 1, lastError: "Failed to fetch" });
  });
});
