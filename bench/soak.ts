// npm run soak — SOAK_SECONDS (default 600) of mixed traffic over loopback HTTP against the production server
// (started as bench:http starts it: WORKER=off plus one `npm run worker`, on a throwaway embedded
// PostgreSQL with the classifying dataset, SOAK_SUBJECTS default 50,000): volunteers fetching their queue
// and classifying, counts, browsing (API lists and shows, the home, project and statistics pages) and the
// engine's reads, from SOAK_CONCURRENCY clients (default 8). The decision engine is configured on the
// workflow, so every classification runs the pipeline. Checks, printed as JSON (exit 1 when one fails):
// - no errors: every answer has its expected status (no 5xx, no network error);
// - memory: the web server's and the worker's resident memory stay under SOAK_MEMORY_LIMIT_MIB (default 1,536) each, and neither
//   ends more than GROWTH_LIMIT above what it used after the first minute (a leak grows without bound);
// - the pipeline's backlog (engine inbox + queued jobs) is back to zero within 120 s of the traffic
//   stopping, and every classification has its extract.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { classificationBody, loadClassifyDataset } from "./classify-dataset";
import { benchDatabase, summarize } from "./lib";
import { ensureBuild, startProductionServer } from "./server";

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const SUBJECTS = Number(process.env.SOAK_SUBJECTS ?? 50_000);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 8);
const PORT = Number(process.env.SOAK_PORT ?? 3960);
const MEMORY_LIMIT_MIB = Number(process.env.SOAK_MEMORY_LIMIT_MIB ?? 1536);
const GROWTH_LIMIT = 1.5;
/** Classifications go to this many subjects, so reductions build up and rules retire some. */
const HOT_SUBJECTS = 2000;

const database = await benchDatabase();
const { pool, closeDb } = await import("../lib/db");
const { ensureBootstrapRecords } = await import("../lib/domain/ensure-bootstrap-records");
await ensureBootstrapRecords();
const sql = pool();
const dataset = await loadClassifyDataset(sql, { subjects: SUBJECTS, seen: 1000 });
// The dataset's project owner (bench1, the first token) configures and reads the engine: the project's
// owner role, as a project created through the API gives it.
await sql.query(
  `INSERT INTO project_roles (project_id, user_id, roles, updated_at) SELECT $1, owner_id, '{owner}', now() FROM projects WHERE id = $1 ON CONFLICT DO NOTHING`,
  [dataset.project],
);
ensureBuild("soak");
const app = startProductionServer(PORT, {});
process.on("SIGINT", () => void app.stop().then(() => process.exit(130)));

/** Resident memory (MiB) of a process and its descendants, PostgreSQL's excluded. */
function treeRssMiB(pid: number): number {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,rss=,comm="])
    .toString()
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/));
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  const comm = new Map<number, string>();
  for (const [p, pp, r, c] of rows) {
    children.set(Number(pp), [...(children.get(Number(pp)) ?? []), Number(p)]);
    rss.set(Number(p), Number(r));
    comm.set(Number(p), c);
  }
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    if (/postgres/.test(comm.get(p) ?? "")) continue;
    total += rss.get(p) ?? 0;
    stack.push(...(children.get(p) ?? []));
  }
  return Math.round(total / 1024);
}

interface Kind {
  name: string;
  weight: number;
  expected: number;
  run(i: number): Promise<number>;
}

const report: Record<string, unknown> = {};
try {
  await app.ready();
  const owner = dataset.tokens[0]; // bench1 owns the project
  const volunteers = dataset.tokens.slice(1);
  const { project, workflow } = dataset;
  const engine = await app.request(
    "POST",
    "/engine/workflows",
    owner,
    {
      workflow: {
        id: workflow,
        extractors_config: { q: { type: "question", task_key: "T0" } },
        reducers_config: { c: { type: "consensus" }, n: { type: "count" } },
        rules_config: [
          { if: ["gte", ["lookup", "c.num_votes", 0], ["const", 4]], then: [{ action: "retire_subject", reason: "consensus" }] },
        ],
      },
    },
    "application/json",
  );
  if (engine !== 201 && engine !== 200) throw new Error(`configuring the engine answered ${engine}`);
  const hot = (i: number) => dataset.subjectIds[(i * 7919) % HOT_SUBJECTS];
  const body = (i: number) => {
    const b = classificationBody({ ...dataset, subjects: HOT_SUBJECTS }, i);
    b.classifications.annotations[0].value = i % 5 === 0 ? 1 : 0; // mostly agreeing: rules fire
    return b;
  };
  const kinds: Kind[] = [
    {
      name: "queue",
      weight: 25,
      expected: 200,
      run: (i) => app.request("GET", `/api/subjects/queued?workflow_id=${workflow}`, volunteers[i % volunteers.length]),
    },
    {
      name: "classify",
      weight: 30,
      expected: 201,
      run: (i) => app.request("POST", "/api/classifications", volunteers[i % volunteers.length], body(i)),
    },
    {
      name: "counts",
      weight: 10,
      expected: 200,
      run: () => app.request("GET", `/counts/classifications?project_id=${project}&period=day`),
    },
    {
      name: "browse_api",
      weight: 15,
      expected: 200,
      run: (i) => app.request("GET", i % 2 ? `/api/projects/${project}` : "/api/projects?page_size=20", volunteers[i % volunteers.length]),
    },
    {
      name: "browse_pages",
      weight: 8,
      expected: 200,
      run: (i) => app.request("GET", ["/", `/projects/${project}`, "/stats"][i % 3], undefined, undefined, "text/html"),
    },
    {
      name: "engine_reads",
      weight: 12,
      expected: 200,
      run: (i) =>
        app.request(
          "GET",
          i % 2
            ? `/engine/workflows/${workflow}/reducers/c/reductions?subject_id=${hot(i)}`
            : `/engine/workflows/${workflow}/actions?page_size=20`,
          owner,
          undefined,
          "application/json",
        ),
    },
  ];
  const totalWeight = kinds.reduce((t, k) => t + k.weight, 0);
  const pick = () => {
    let r = Math.random() * totalWeight;
    return kinds.find((k) => (r -= k.weight) < 0) ?? kinds[0];
  };

  const latencies = new Map(kinds.map((k) => [k.name, [] as number[]]));
  const errors: string[] = [];
  let errorCount = 0;
  let next = 0;
  const memory: { at_s: number; web_mib: number; worker_mib: number }[] = [];
  const t0 = performance.now();
  const until = t0 + SECONDS * 1000;
  const sample = () =>
    memory.push({
      at_s: Math.round((performance.now() - t0) / 1000),
      web_mib: treeRssMiB(app.server.pid!),
      worker_mib: treeRssMiB(app.worker.pid!),
    });
  sample();
  const sampler = setInterval(sample, 5000);
  const progress = setInterval(() => {
    const done = [...latencies.values()].reduce((t, l) => t + l.length, 0);
    const m = memory.at(-1)!;
    console.error(
      `[soak] ${Math.round((performance.now() - t0) / 1000)} s: ${done} requests, ${errorCount} errors, web ${m.web_mib} MiB, worker ${m.worker_mib} MiB`,
    );
  }, 30_000);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const kind = pick();
        const i = next++;
        const t = performance.now();
        let status: number | string;
        try {
          status = await kind.run(i);
        } catch (err) {
          status = (err as Error).message;
        }
        latencies.get(kind.name)!.push(performance.now() - t);
        if (status !== kind.expected) {
          errorCount++;
          if (errors.length < 10) errors.push(`${kind.name}: ${status}`);
        }
      }
    }),
  );
  const wall = performance.now() - t0;
  clearInterval(sampler);
  clearInterval(progress);
  sample();

  // The backlog drains, and every classification was extracted.
  const drainStart = performance.now();
  let backlog = -1;
  while (performance.now() - drainStart < 120_000) {
    backlog = (
      await sql.query(
        `SELECT ((SELECT count(*) FROM graphile_worker.jobs WHERE attempts < max_attempts) + (SELECT count(*) FROM engine_inbox))::int AS n`,
      )
    ).rows[0].n;
    if (backlog === 0) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const drainSeconds = Math.round((performance.now() - drainStart) / 100) / 10;
  const unextracted = (
    await sql.query(
      `SELECT count(*)::int AS n FROM classifications c WHERE c.workflow_id = $1 AND NOT EXISTS (SELECT 1 FROM extracts e WHERE e.classification_id = c.id)`,
      [workflow],
    )
  ).rows[0].n;
  const stored = (await sql.query(`SELECT count(*)::int AS n FROM classifications WHERE workflow_id = $1`, [workflow])).rows[0].n;
  const retired = (
    await sql.query(`SELECT count(*)::int AS n FROM subject_workflow_statuses WHERE workflow_id = $1 AND retirement_reason = 'consensus'`, [
      workflow,
    ])
  ).rows[0].n;

  const afterMinute = memory.find((m) => m.at_s >= 60) ?? memory[1] ?? memory[0];
  const last = memory.at(-1)!;
  const peak = { web_mib: Math.max(...memory.map((m) => m.web_mib)), worker_mib: Math.max(...memory.map((m) => m.worker_mib)) };
  const checks = {
    no_errors: errorCount === 0,
    memory_under_limit: peak.web_mib <= MEMORY_LIMIT_MIB && peak.worker_mib <= MEMORY_LIMIT_MIB,
    memory_not_growing: last.web_mib <= afterMinute.web_mib * GROWTH_LIMIT && last.worker_mib <= afterMinute.worker_mib * GROWTH_LIMIT,
    backlog_drained: backlog === 0 && unextracted === 0,
  };
  const requests = [...latencies.values()].reduce((t, l) => t + l.length, 0);
  Object.assign(report, {
    benchmark: "soak",
    node: process.version,
    cores: os.cpus().length,
    seconds: SECONDS,
    concurrency: CONCURRENCY,
    subjects: dataset.subjects,
    requests,
    throughput_per_s: Math.round((requests / wall) * 1000 * 10) / 10,
    kinds: Object.fromEntries(kinds.map((k) => [k.name, summarize(latencies.get(k.name)!, wall)])),
    errors: { count: errorCount, first: errors },
    memory: { limit_mib: MEMORY_LIMIT_MIB, growth_limit: GROWTH_LIMIT, after_first_minute: afterMinute, peak, end: last },
    pipeline: {
      classifications_stored: stored,
      unextracted,
      retired_by_consensus: retired,
      backlog_after_drain: backlog,
      drain_seconds: drainSeconds,
    },
    checks,
    passed: Object.values(checks).every(Boolean),
  });
} finally {
  await app.stop();
  await closeDb();
  await database.stop();
}
console.log(JSON.stringify(report, null, 2));
fs.writeFileSync(".soak-last.json", JSON.stringify(report, null, 2));
process.exit(report.passed ? 0 : 1);
