import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_LAG_MS, lsnBytes, maxReplicaLagMs, ReplicaLag } from "./replica-lag";

describe("lsnBytes", () => {
  it.each([
    ["0/0", 0n],
    ["0/3001128", 0x3001128n],
    ["16/B374D848", (0x16n << 32n) + 0xb374d848n],
    ["FFFFFFFF/FFFFFFFF", (1n << 64n) - 1n],
  ])("%s", (lsn, bytes) => expect(lsnBytes(lsn)).toBe(bytes));

  it.each(["", "0", "0/", "x/1", "1/2/3", "123456789/0"])("refuses %j", (lsn) => expect(() => lsnBytes(lsn)).toThrow());

  it("orders positions across the high word", () => expect(lsnBytes("1/0") > lsnBytes("0/FFFFFFFF")).toBe(true));
});

describe("maxReplicaLagMs", () => {
  it.each([
    [undefined, DEFAULT_MAX_LAG_MS],
    ["", DEFAULT_MAX_LAG_MS],
    ["abc", DEFAULT_MAX_LAG_MS],
    ["-1", DEFAULT_MAX_LAG_MS],
    ["0", 0],
    ["250", 250],
  ])("%j → %d", (raw, ms) => expect(maxReplicaLagMs(raw)).toBe(ms));
});

describe("ReplicaLag", () => {
  const KEEP = 10_000;

  it("is 0 while the replica has replayed all the primary has written, also when the primary is idle", () => {
    const lag = new ReplicaLag();
    expect(lag.observe(1000, 100n, 100n, KEEP)).toBe(0);
    expect(lag.observe(2000, 100n, 100n, KEEP)).toBe(0);
    expect(lag.observe(60_000, 100n, 100n, KEEP)).toBe(0);
  });

  it("is the time since the latest recorded primary position the replica has replayed", () => {
    const lag = new ReplicaLag();
    lag.observe(1000, 100n, 100n, KEEP);
    lag.observe(2000, 200n, 150n, KEEP);
    expect(lag.observe(3000, 300n, 200n, KEEP)).toBe(1000); // has 2000's position, not 3000's
    expect(lag.observe(4000, 300n, 250n, KEEP)).toBe(2000);
    expect(lag.observe(5000, 300n, 300n, KEEP)).toBe(0);
  });

  it("grows while replay is stopped, and is Infinity once behind every position kept", () => {
    const lag = new ReplicaLag();
    lag.observe(0, 100n, 100n, KEEP);
    expect(lag.observe(1000, 200n, 100n, KEEP)).toBe(1000);
    expect(lag.observe(9000, 200n, 100n, KEEP)).toBe(9000);
    expect(lag.observe(11_000, 200n, 100n, KEEP)).toBe(Infinity);
    expect(lag.observe(12_000, 200n, 200n, KEEP)).toBe(0);
  });

  it("is Infinity on the first check of a replica behind the primary", () => {
    expect(new ReplicaLag().observe(0, 200n, 100n, KEEP)).toBe(Infinity);
  });
});
