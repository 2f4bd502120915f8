/**
 * Group commit for one kind of write: items submitted while `maxInFlight` statements are already running
 * wait, and go together in the next statement (one round trip, one executor start, one commit for all of
 * them). With nothing in flight an item goes at once, alone, so a lone request never waits.
 *
 * Items whose keys meet (the same subject of a workflow, the same idempotency key) never share a statement
 * nor run at once: a later one waits for a following statement, in arrival order, so a process's own
 * statements never wait on each other's row locks. Should a statement of several items fail,
 * nothing of it was stored (one statement is atomic), and each of its items is tried again alone, so one
 * item's error is that item's answer only.
 */
export interface BatcherOptions<T, R> {
  /** Statements running at once; further items wait for one of them to end. */
  maxInFlight: number;
  /** The most items in one statement. */
  maxBatch: number;
  /** What an item touches that no other item of the same statement may. */
  keys(item: T): readonly string[];
  /** One statement for these items: one result each, in their order. */
  run(items: T[]): Promise<R[]>;
}

export interface BatcherStats {
  statements: number;
  items: number;
  /** The most items a statement carried. */
  largest: number;
  /** Statements of several items that failed (their items were then tried alone). */
  failedGroups: number;
}

interface Waiting<T, R> {
  item: T;
  /** opts.keys(item), taken once. */
  keys: readonly string[];
  alone: boolean;
  resolve(r: R): void;
  reject(e: unknown): void;
}

export interface Batcher<T, R> {
  submit(item: T): Promise<R>;
  stats(): BatcherStats;
}

export function statementBatcher<T, R>(opts: BatcherOptions<T, R>): Batcher<T, R> {
  if (!(opts.maxInFlight >= 1 && opts.maxBatch >= 1)) throw new Error("statementBatcher needs maxInFlight and maxBatch of at least 1");
  const queue: Waiting<T, R>[] = [];
  const stats: BatcherStats = { statements: 0, items: 0, largest: 0, failedGroups: 0 };
  let inFlight = 0;
  /** The keys of the items in the statements in flight. */
  const inFlightKeys = new Set<string>();

  /**
   * The next statement's items, oldest first: those that meet neither a statement in flight nor an item
   * before them (taken or left waiting), so no two statements in flight touch the same rows and an item
   * never overtakes an earlier one it meets (a retry stays behind its original). Empty when every waiting
   * item meets one in flight.
   */
  function take(): Waiting<T, R>[] {
    const seen = new Set(inFlightKeys);
    const group: Waiting<T, R>[] = [];
    for (let i = 0; i < queue.length && group.length < opts.maxBatch; ) {
      const w = queue[i];
      const meets = (w.alone && group.length > 0) || w.keys.some((k) => seen.has(k));
      for (const k of w.keys) seen.add(k);
      if (meets) {
        i++;
        continue;
      }
      group.push(w);
      queue.splice(i, 1);
      if (w.alone) break;
    }
    return group;
  }

  async function send(group: Waiting<T, R>[]): Promise<void> {
    stats.statements++;
    stats.items += group.length;
    stats.largest = Math.max(stats.largest, group.length);
    let results: R[];
    try {
      results = await opts.run(group.map((w) => w.item));
      if (results.length !== group.length) throw new Error(`a statement of ${group.length} items answered ${results.length}`);
    } catch (e) {
      if (group.length === 1) return group[0].reject(e);
      stats.failedGroups++;
      // Tried again one at a time, ahead of the items that came later.
      queue.unshift(...group.map((w) => ({ ...w, alone: true })));
      return;
    }
    group.forEach((w, i) => {
      w.resolve(results[i]);
    });
  }

  function pump(): void {
    while (inFlight < opts.maxInFlight && queue.length) {
      const group = take();
      if (!group.length) return;
      const keys = group.flatMap((w) => w.keys);
      for (const k of keys) inFlightKeys.add(k);
      inFlight++;
      void send(group).finally(() => {
        for (const k of keys) inFlightKeys.delete(k);
        inFlight--;
        pump();
      });
    }
  }

  return {
    submit(item: T): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, keys: opts.keys(item), alone: false, resolve, reject });
        pump();
      });
    },
    stats: () => ({ ...stats }),
  };
}
