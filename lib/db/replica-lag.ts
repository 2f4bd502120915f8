// How far a streaming replica is behind the primary, in time, for the read client (lib/db/index.ts readDb):
// reads that tolerate a little lag go to the replica only while it is at most DATABASE_REPLICA_MAX_LAG_MS
// behind. PostgreSQL gives positions, not times: the primary's WAL write position (pg_current_wal_lsn())
// and the replica's replayed position (pg_last_wal_replay_lsn()). Each check records the primary's
// position with the time it was read; the replica has everything the primary had written at the latest
// recorded time whose position it has replayed, so it is at most that long behind. Unlike the replica's
// own pg_last_xact_replay_timestamp(), this neither grows while the primary is idle nor reads as fresh
// when the replica has stopped receiving.

/** The replica's lag allowed by default, in ms. */
export const DEFAULT_MAX_LAG_MS = 5000;

/** DATABASE_REPLICA_MAX_LAG_MS: a non-negative number of ms, else the default. */
export function maxReplicaLagMs(configured: string | undefined): number {
  const n = Number(configured);
  return configured?.trim() && Number.isFinite(n) && n >= 0 ? n : DEFAULT_MAX_LAG_MS;
}

/** A WAL position as PostgreSQL writes it ("16/B374D848") in bytes. */
export function lsnBytes(lsn: string): bigint {
  const m = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(lsn);
  if (!m) throw new Error(`not a WAL position: ${lsn}`);
  return (BigInt(`0x${m[1]}`) << 32n) + BigInt(`0x${m[2]}`);
}

export class ReplicaLag {
  private samples: { at: number; lsn: bigint }[] = [];

  /**
   * Records the primary's position read at `at` and answers the replica's lag in ms given its replayed
   * position (read at the same moment or after): 0 when it has all the primary had, Infinity when it is
   * behind every position recorded in the last `keepMs`.
   */
  observe(at: number, primary: bigint, replica: bigint, keepMs: number): number {
    this.samples.push({ at, lsn: primary });
    while (this.samples.length > 1 && this.samples[0].at < at - keepMs) this.samples.shift();
    for (let i = this.samples.length - 1; i >= 0; i--) if (this.samples[i].lsn <= replica) return at - this.samples[i].at;
    return Infinity;
  }
}
