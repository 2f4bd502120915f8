// The metrics the README's table and docs/grafana-dashboard.json name are the ones the server defines, and
// every one the server defines is in the table.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { metrics } from "./metrics";

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
