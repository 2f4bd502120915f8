// npm run bench:http — what a client gets: the production server started as `npm start` does (WORKER=off,
// with `npm run worker` beside it, the documented production layout), on the classifying dataset
// (BENCH_SUBJECTS, default 1,000,000), measured over real HTTP from this separate process, each for
// BENCH_SECONDS (default 15) after a warm-up. Beside our routes, two ceilings taken in the same run: a
// no-op route of the same server (the /api catch-all's 404: the framework's own cost) and, when pgbench is
// installed, the classification row INSERTed by pgbench straight into the same database. Prints JSON.
// WEB_CONCURRENCY (default 1) is passed to the server. BENCH_BUILD=0 skips `next build` when a build exists.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { classificationBody, loadClassifyDataset } from "./classify-dataset";
import { benchDatabase, summarize } from "./lib";
import { cpuPerRequest, cpuSnapshot } from "./process-cpu";
import { pipelineLoad } from "./pipeline-load";
import { ensureBuild, startProductionServer, type ProductionServer } from "./server";

// `npm run bench:http -- --lists`: the large lists at the established platform's sizes instead (bench:lists).
if (process.argv.includes("--lists")) {
  await import("./http-lists");
  process.exit(0);
}

const SUBJECTS = Number(process.env.BENCH_SUBJECTS ?? 1_000_000);
const SEEN = Number(process.env.BENCH_SEEN ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const PORT = Number(process.env.BENCH_PORT ?? 3950);
const WEB_CONCURRENCY = process.env.WEB_CONCURRENCY ?? "1";
// BENCH_ONLY=noop_16,create_16: just these measurements (a diagnosis run; the ratios need both of theirs).
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",").map((s) => s.trim())) : null;

const database = await benchDatabase();
const { pool, closeDb } = await import("../lib/db");
const { ensureBootstrapRecords } = await import("../lib/domain/ensure-bootstrap-records");
await ensureBootstrapRecords();
const sql = pool();
const dataset = await loadClassifyDataset(sql, { subjects: SUBJECTS, seen: SEEN });

ensureBuild("bench");

// BENCH_CPU_PROF=<dir>: a diagnosis run; the Next server is started directly under --cpu-prof (node
// refuses the flag in NODE_OPTIONS) and writes its profile into <dir> when it stops.
const profileDir = process.env.BENCH_CPU_PROF;
const app = startProductionServer(
  PORT,
  { WEB_CONCURRENCY },
  profileDir
    ? [process.execPath, ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, "node_modules/next/dist/bin/next", "start", "-p", String(PORT)]]
    : undefined,
);
process.on("SIGINT", () => void app.stop().then(() => process.exit(130)));
const request = app.request;

/** Runs `concurrency` clients calling fn back to back for `seconds`; every answer must have `expected` status. */
async function timed(
  seconds: number,
  concurrency: number,
  expected: number,
  fn: (i: number) => Promise<number>,
  on: ProductionServer = app,
) {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const until = performance.now() + seconds * 1000;
  const cpu0 = cpuSnapshot({ web: on.server.pid, worker: on.worker.pid });
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        const status = await fn(next++);
        if (status !== expected) failures++;
        latencies.push(performance.now() - t);
      }
    }),
  );
  const wall = performance.now() - t0;
  // CPU milliseconds per request in each process group (web server, worker, PostgreSQL, this generator).
  const cpu_ms_per_request = cpuPerRequest(cpu0, cpuSnapshot({ web: on.server.pid, worker: on.worker.pid }), latencies.length);
  return { ...summarize(latencies, wall), concurrency, failures, cpu_ms_per_request };
}

async function measure(name: string, concurrency: number, expected: number, fn: (i: number) => Promise<number>) {
  console.error(`[bench] ${name} at ${concurrency} concurrent`);
  await timed(WARMUP_SECONDS, concurrency, expected, fn);
  return timed(SECONDS, concurrency, expected, fn);
}

interface Slot {
  name: string;
  expected: number;
  fn: (i: number) => Promise<number>;
  /** The server it is sent to (its processes' CPU is counted); the main one by default. */
  on?: ProductionServer;
}

/**
 * Two measurements taken in alternating slices (ROUNDS of each, SECONDS in all per measurement), so both
 * see the same machine: on a shared machine a neighbour's burst would otherwise land on one of the two and
 * skew their ratio. Returns each one's summary over all its slices.
 */
async function paired(concurrency: number, a: Slot, b: Slot) {
  const ROUNDS = 6;
  const cpu = { a: [] as Record<string, number>[], b: [] as Record<string, number>[] };
  console.error(`[bench] ${a.name} and ${b.name} alternately at ${concurrency} concurrent`);
  await timed(WARMUP_SECONDS, concurrency, a.expected, a.fn, a.on);
  await timed(WARMUP_SECONDS, concurrency, b.expected, b.fn, b.on);
  const acc = {
    a: { count: 0, wall: 0, failures: 0, p50: [] as number[], p99: [] as number[] },
    b: { count: 0, wall: 0, failures: 0, p50: [] as number[], p99: [] as number[] },
  };
  for (let r = 0; r < ROUNDS; r++) {
    for (const [key, slot] of [
      ["a", a],
      ["b", b],
    ] as const) {
      const res = await timed(SECONDS / ROUNDS, concurrency, slot.expected, slot.fn, slot.on);
      const t = acc[key];
      t.count += res.count;
      t.wall += res.count / res.throughput_per_s;
      t.failures += res.failures;
      t.p50.push(res.p50_ms);
      t.p99.push(res.p99_ms);
      cpu[key].push(res.cpu_ms_per_request);
    }
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const medianCpu = (xs: Record<string, number>[]) =>
    Object.fromEntries(Object.keys(xs[0] ?? {}).map((k) => [k, median(xs.map((x) => x[k]))]));
  const out = (t: typeof acc.a, c: Record<string, number>[]) => ({
    count: t.count,
    throughput_per_s: Math.round((t.count / t.wall) * 100) / 100,
    p50_ms: median(t.p50),
    p99_ms: median(t.p99),
    concurrency,
    failures: t.failures,
    slices: ROUNDS,
    cpu_ms_per_request: medianCpu(c),
  });
  return { [a.name]: out(acc.a, cpu.a), [b.name]: out(acc.b, cpu.b) };
}

/** The classification row inserted by pgbench with `clients` connections: the database's own ceiling. */
function pgbenchInsert(clients: number) {
  const which = spawnSync("which", ["pgbench"], { encoding: "utf8" });
  if (which.status !== 0) return { skipped: "pgbench is not installed (Debian: postgresql-client)" };
  const script = path.join(os.tmpdir(), `quorum-bench-insert-${process.pid}.sql`);
  fs.writeFileSync(
    script,
    `\\set s random(${dataset.firstSubject}, ${dataset.firstSubject + dataset.subjects - 1})
INSERT INTO classifications (project_id, workflow_id, user_id, subject_ids, annotations, metadata, completed, workflow_version, updated_at)
VALUES (${dataset.project}, ${dataset.workflow}, NULL, ARRAY[(:s)::int], '[{"task":"T0","value":1}]', '{"user_agent":"pgbench"}', true, '1.1', now());
`,
  );
  const run = spawnSync(
    "pgbench",
    ["-n", "-M", "prepared", "-c", String(clients), "-j", "2", "-T", String(SECONDS), "-f", script, process.env.DATABASE_URL!],
    { encoding: "utf8" },
  );
  fs.rmSync(script, { force: true });
  const tps = /tps = ([\d.]+)/.exec(run.stdout)?.[1];
  const latency = /latency average = ([\d.]+) ms/.exec(run.stdout)?.[1];
  if (!tps) return { skipped: `pgbench failed: ${run.stderr.split("\n").find((l) => /error/i.test(l)) ?? run.stderr.trim()}` };
  return { concurrency: clients, throughput_per_s: Number(tps), latency_avg_ms: Number(latency) };
}

/**
 * One server process against two on this machine: a second production server with twice the main one's
 * WEB_CONCURRENCY (same database, its own worker) on the next port; each route is measured on both in
 * alternating slices (see paired()), and the report gives each one's figures and two/one.
 */
async function scaleOut() {
  const n = Number(WEB_CONCURRENCY);
  const second = startProductionServer(PORT + 1, { WEB_CONCURRENCY: String(2 * n) });
  try {
    await second.ready();
    const { tokens, heavyTokens, workflow, project } = dataset;
    // (server's request, its index k: 0 or 1) => one client call; creates on the two servers take subjects
    // from interleaved halves of the sequence, so they never classify the same one.
    type Call = (r: ProductionServer["request"], k: number) => (i: number) => Promise<number>;
    const routes: [string, number, Call][] = [
      ["noop", 404, (r) => (i) => r("GET", "/api/bench-noop", tokens[i % tokens.length])],
      ["project_show", 200, (r) => (i) => r("GET", `/api/projects/${project}`, tokens[i % tokens.length])],
      ["queue", 200, (r) => (i) => r("GET", `/api/subjects/queued?workflow_id=${workflow}`, heavyTokens[i % heavyTokens.length])],
      [
        "create",
        201,
        (r, k) => (i) => r("POST", "/api/classifications", tokens[i % tokens.length], classificationBody(dataset, 3_000_000 + 2 * i + k)),
      ],
    ];
    const out: Record<string, unknown> = { processes: [n, 2 * n] };
    for (const [name, expected, call] of routes) {
      const res = await paired(
        16,
        { name: "one", expected, fn: call(app.request, 0) },
        { name: "two", expected, fn: call(second.request, 1), on: second },
      );
      out[name] = { ...res, two_vs_one_throughput: Math.round((res.two.throughput_per_s / res.one.throughput_per_s) * 1000) / 1000 };
    }
    return out;
  } finally {
    await second.stop();
  }
}

try {
  await app.ready();
  const { tokens, heavyTokens, workflow, project } = dataset;
  const noop = (i: number) => request("GET", "/api/bench-noop", tokens[i % tokens.length]);
  const create = (offset: number) => (i: number) =>
    request("POST", "/api/classifications", tokens[i % tokens.length], classificationBody(dataset, offset + i));
  const queue = (i: number) => request("GET", `/api/subjects/queued?workflow_id=${workflow}`, heavyTokens[i % heavyTokens.length]);
  // Each measurement unless BENCH_ONLY leaves it out (then it is absent from the report).
  const pick = <T>(key: string, run: () => Promise<T>) => (ONLY && !ONLY.has(key) ? Promise.resolve(undefined) : run());
  const results = {
    noop_1: await pick("noop_1", () => measure("no-op route", 1, 404, noop)),
    noop_16: await pick("noop_16", () => measure("no-op route", 16, 404, noop)),
    queue_1: await pick("queue_1", () => measure("subject queue", 1, 200, queue)),
    queue_16: await pick("queue_16", () => measure("subject queue", 16, 200, queue)),
    project_show_16: await pick("project_show_16", () =>
      measure("project show", 16, 200, (i) => request("GET", `/api/projects/${project}`, tokens[i % tokens.length])),
    ),
    counts_16: await pick("counts_16", () =>
      measure("counts", 16, 200, () => request("GET", `/counts/classifications?project_id=${project}&period=day`)),
    ),
    create_16: await pick("create_16", () => measure("classification create", 16, 201, create(0))),
    create_50: await pick("create_50", () => measure("classification create", 50, 201, create(1_000_000))),
    // The ratio's figures, measured in alternating slices (see paired()).
    paired_16: await pick("paired_16", () =>
      paired(16, { name: "noop", expected: 404, fn: noop }, { name: "create", expected: 201, fn: create(2_000_000) }),
    ),
    // The queue's latency against the no-op route's, one client, in alternating slices.
    paired_1: await pick("paired_1", () =>
      paired(1, { name: "noop", expected: 404, fn: noop }, { name: "queue", expected: 200, fn: queue }),
    ),
    scale_out_16: await pick("scale_out_16", () => scaleOut()),
    // The decision engine under the same creates (bench/pipeline-load.ts): retirement latency, extraction
    // backlog and drain at the maximum rate and at half of it, beside creates on a workflow it does not run.
    pipeline: await pick("pipeline", () =>
      pipelineLoad({
        sql,
        dataset,
        app,
        seconds: Number(process.env.BENCH_PIPELINE_SECONDS ?? SECONDS),
        concurrency: Number(process.env.BENCH_PIPELINE_CONCURRENCY ?? 16),
        secondWorker: process.env.BENCH_PIPELINE_SECOND_WORKER !== "0",
      }),
    ),
  };
  console.error("[bench] pgbench raw INSERT at 16 concurrent");
  const rawInsert16 = ONLY && !ONLY.has("raw_insert_16") ? { skipped: "BENCH_ONLY" } : pgbenchInsert(16);
  const ratio = (a: number | undefined, b: number | undefined) => (a && b ? Math.round((a / b) * 1000) / 1000 : null);
  console.log(
    JSON.stringify(
      {
        benchmark: "http",
        node: process.version,
        cores: os.cpus().length,
        web_concurrency: Number(WEB_CONCURRENCY),
        layout: "npm start with WORKER=off, plus one npm run worker process; load generator in this process over loopback HTTP keep-alive",
        subjects: dataset.subjects,
        seen_per_heavy_user: SEEN,
        seconds_per_measurement: SECONDS,
        ...results,
        raw_insert_16: rawInsert16,
        ratios: {
          create_16_vs_noop_16_throughput: ratio(results.create_16?.throughput_per_s, results.noop_16?.throughput_per_s),
          create_16_vs_noop_16_throughput_paired: ratio(
            results.paired_16?.create.throughput_per_s,
            results.paired_16?.noop.throughput_per_s,
          ),
          create_16_vs_raw_insert_16_throughput: ratio(
            results.create_16?.throughput_per_s,
            "throughput_per_s" in rawInsert16 ? rawInsert16.throughput_per_s : undefined,
          ),
          queue_1_p50_minus_noop_1_p50_ms:
            results.queue_1 && results.noop_1 ? Math.round((results.queue_1.p50_ms - results.noop_1.p50_ms) * 100) / 100 : null,
          queue_1_p50_minus_noop_1_p50_ms_paired: results.paired_1
            ? Math.round((results.paired_1.queue.p50_ms - results.paired_1.noop.p50_ms) * 100) / 100
            : null,
        },
      },
      null,
      2,
    ),
  );
} finally {
  await app.stop();
  await closeDb();
  await database.stop();
}
process.exit(0);
