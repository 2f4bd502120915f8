import type { Sql } from "@/lib/db/sql";
import { bumpRetiredCounters } from "@/lib/domain/retire-subjects";

// The retired-subject counters of a workflow and its project are one row each that every retirement of
// the workflow moves. An engine transaction that moved them at each retirement held both rows locked from
// its first retirement to its commit, so the engine's concurrent batches (and the counts folder) waited for
// one another there: under load they ran one after the other, and the whole pipeline fell behind (docs/benchmarks.md,
// Benchmarks). The engine's transactions therefore note what they retire here and move each counter once,
// as their last statement before COMMIT (flushRetiredCounters), so the rows are locked only for the commit.

const ledgers = new WeakMap<Sql, Map<number, number>>();

/** From now until flushRetiredCounters, retirements on this client are noted rather than counted at once. */
export function openRetiredCounters(client: Sql): void {
  ledgers.set(client, new Map());
}

/** Counts n retirements of the workflow: noted when the transaction has a ledger open, else at once. */
export async function countRetired(client: Sql, workflowId: number, n: number): Promise<void> {
  if (!n) return;
  const ledger = ledgers.get(client);
  if (!ledger) return bumpRetiredCounters(client, workflowId, n);
  ledger.set(workflowId, (ledger.get(workflowId) ?? 0) + n);
}

/** What the ledger holds now (to put back when a savepoint is rolled back). */
export function retiredCountersMark(client: Sql): Map<number, number> | null {
  const ledger = ledgers.get(client);
  return ledger ? new Map(ledger) : null;
}

export function rollbackRetiredCounters(client: Sql, mark: Map<number, number> | null): void {
  if (mark) ledgers.set(client, mark);
}

/** Moves the noted counters (workflows in id order, as every transaction does) and closes the ledger. */
export async function flushRetiredCounters(client: Sql): Promise<void> {
  const ledger = ledgers.get(client);
  ledgers.delete(client);
  if (!ledger) return;
  for (const [workflowId, n] of [...ledger].sort((a, b) => a[0] - b[0])) await bumpRetiredCounters(client, workflowId, n);
}

/** Drops the ledger without counting (the transaction rolled back). */
export function discardRetiredCounters(client: Sql): void {
  ledgers.delete(client);
}
