import type { EngineTx } from "./engine-tx";
import type { EngineEvent } from "./events";

// How a stage touches the database: `tx` runs fn in one transaction; events passed to `emit` are sent
// only if that transaction commits (graphile-worker: added as jobs inside it; Inngest: sent by a step
// right after). Stages are idempotent, so a stage re-run after a crash emits the same events again.
export type Emit = (...events: EngineEvent[]) => void;
export type TxRunner = <T>(fn: (tx: EngineTx, emit: Emit) => Promise<T>) => Promise<T>;
