import type { Sql } from "@/lib/db/sql";
import { bumpRetiredCounters } from "@/lib/domain/retire-subjects";
import type { SubjectMetadata } from "@/lib/engine/types";

// An engine transaction: its connection, and what the stages keep for as long as it lasts. Every stage
// function that needs more than SQL takes an EngineTx (lib/engine/run/pipeline.ts makes one per
// transaction), so nothing is remembered beside the connection and nothing outlives the transaction.
export interface EngineTx extends Sql {
  /** Retirements noted per workflow, moved once as the transaction's last statement (RetiredLedger). */
  readonly retired: RetiredLedger;
  /** Subject metadata this transaction has read, by `space:id`: the stages ask for the same subjects again and again. */
  readonly subjects: Map<string, SubjectMetadata>;
  /** An inbox consumer's transaction: when its classifications were created, for the pipeline's latencies (timeline.ts). */
  timeline?: PipelineTimeline;
}

/** An engine transaction on a connection that is in a transaction (or a read that is rolled back: the dry run). */
export function engineTx(client: Sql): EngineTx {
  return { query: client.query.bind(client) as Sql["query"], retired: new RetiredLedger(), subjects: new Map() };
}

/**
 * The retired-subject counters of a workflow and its project are one row each that every retirement of the
 * workflow moves. An engine transaction that moved them at each retirement held both rows locked from its
 * first retirement to its commit, so the engine's concurrent batches (and the counts folder) waited for
 * one another there: under load they ran one after the other, and the pipeline fell behind
 * (docs/benchmarks.md). An engine transaction therefore notes what it retires here and moves each counter
 * once, as its last statement before COMMIT (flush), so the rows are locked only for the commit.
 */
export class RetiredLedger {
  private counts = new Map<number, number>();

  /** Notes n retirements of the workflow (retireSubjects' `count`). */
  readonly note = (workflowId: number, n: number): void => {
    if (n) this.counts.set(workflowId, (this.counts.get(workflowId) ?? 0) + n);
  };

  /** What it holds now, to put back when a savepoint is rolled back. */
  mark(): Map<number, number> {
    return new Map(this.counts);
  }

  rollback(mark: Map<number, number>): void {
    this.counts = new Map(mark);
  }

  /** Moves the noted counters (workflows in id order, as every transaction does) and empties the ledger. */
  async flush(client: Sql): Promise<void> {
    const noted = [...this.counts].sort((a, b) => a[0] - b[0]);
    this.counts.clear();
    for (const [workflowId, n] of noted) await bumpRetiredCounters(client, workflowId, n);
  }
}

/** When an inbox consumer's classifications were created, and what its transaction did with them (timeline.ts). */
export interface PipelineTimeline {
  /** When each taken classification was handed to the engine (ms since the epoch), by `workflow:classification`. */
  handedAt: Map<string, number>;
  /** Of those, the ones whose extracts this transaction wrote. */
  extracted: number[];
  /** The newest create among this transaction's classifications of each subject, by `workflow:subject`. */
  newestBySubject: Map<string, number>;
  retired: number[];
}
