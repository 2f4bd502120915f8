// The metrics the README's table and docs/grafana-dashboard.json name are the ones the server defines, and
// every one the server defines is in the table.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { metrics, scrape, setMetricSource } from "./metrics";

const ROOT = path.resolve(import.meta.dirname, "../..");
const named = (text: string) => new Set([...text.matchAll(/\bquorum_[a-z_]+/g)].map((m) => m[0].replace(/_(bucket|count|sum)$/, "")));

describe("the metrics' documentation", () => {
  const m = metrics();
  const defined = new Set(
    Object.values(m)
      .map((v) => (v as { name?: unknown })?.name)
      .filter((n): n is string => typeof n === "string" && n.startsWith("quorum_")),
  );

  it("defines the metrics the operations issue asks for", () => {
    expect(defined.size).toBeGreaterThanOrEqual(12);
  });

  it.each([["README.md"], ["docs/grafana-dashboard.json"]])("%s names only metrics the server defines", (file) => {
    const used = named(fs.readFileSync(path.join(ROOT, file), "utf8"));
    expect(used.size).toBeGreaterThan(5);
    for (const n of used) expect(defined, n).toContain(n);
  });

  it("README's table names every metric the server defines", () => {
    const readme = named(fs.readFileSync(path.join(ROOT, "README.md"), "utf8"));
    for (const n of defined) expect(readme, n).toContain(n);
  });

  it("the dashboard is valid JSON with a panel per metric family", () => {
    const dash = JSON.parse(fs.readFileSync(path.join(ROOT, "docs/grafana-dashboard.json"), "utf8"));
    const exprs = dash.panels.flatMap((p: { targets?: { expr: string }[] }) => (p.targets ?? []).map((t) => t.expr)).join("\n");
    for (const n of [
      "quorum_http_request_duration_seconds",
      "quorum_engine_inbox_depth",
      "quorum_engine_create_to_retirement_seconds",
      "quorum_jobs",
      "quorum_db_pool_connections",
      "nodejs_eventloop_lag_p99_seconds",
    ])
      expect(exprs).toContain(n);
  });
});

describe("the queue gauges' read", () => {
  const state = (inboxDepth: number) => ({ inboxDepth, inboxOldestSeconds: 0, jobs: { waiting: 0, running: 0, retrying: 0, failed: 0 } });
  const depth = (text: string) => Number(/^quorum_engine_inbox_depth (\S+)$/m.exec(text)?.[1]);
  const tick = () => new Promise((r) => setTimeout(r, 10));

  it("is one query a scrape, and each scrape reads the queue as it is then, even while an earlier read is under way", async () => {
    const pending: Array<(n: number) => void> = [];
    let reads = 0;
    setMetricSource("queues", () => {
      reads++;
      return new Promise((resolve) => pending.push((n) => resolve(state(n))));
    });
    try {
      // A scrape whose read is slow (the database under load): its four gauges share one read ...
      const first = scrape();
      await tick();
      expect(reads).toBe(1);
      // ... and another scrape meanwhile, after the inbox drained: it reads again, and shows 0.
      const second = scrape();
      await tick();
      expect(reads).toBe(2);
      pending[1](0);
      expect(depth(await second)).toBe(0);
      pending[0](120);
      expect(depth(await first)).toBe(120);
      // Once a read is done, the next scrape reads again.
      const third = scrape();
      await tick();
      expect(reads).toBe(3);
      pending[2](7);
      expect(depth(await third)).toBe(7);
    } finally {
      setMetricSource("queues", undefined);
    }
  });
});
