// npm run bench:pages — what an HTML page costs over HTTP: the production server (as `npm start` runs it,
// WORKER=off with one `npm run worker` beside it) on a small classifying dataset (BENCH_SUBJECTS, default
// 2,000), and from this process keep-alive GETs over loopback of the home page `/` and the classify page
// `/projects/<id>/classify` as a browser without a session asks for them (Accept: text/html, gzip), beside
// the no-op route (the /api catch-all's 404: the framework's own ceiling, which no proxy matcher covers).
// The three are measured in alternating slices (BENCH_ROUNDS of each, BENCH_SECONDS in all per route) at
// one client and at BENCH_CONCURRENCY (16), so all three see the same machine; the report gives throughput,
// p50/p99, the web process's CPU per request, each page against the no-op route, whether the build has a
// proxy, and the script-src each answer carried. Prints JSON. BENCH_BUILD=0 skips `next build` when a build
// exists (compare two builds by running this against each: the no-op route is the yardstick between runs).
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import { loadClassifyDataset } from "./classify-dataset";
import { benchDatabase, summarize } from "./lib";
import { cpuPerRequest, cpuSnapshot } from "./process-cpu";
import { ensureBuild, startProductionServer } from "./server";

const SUBJECTS = Number(process.env.BENCH_SUBJECTS ?? 2_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PORT = Number(process.env.BENCH_PORT ?? 3970);
const HTML = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

const database = await benchDatabase();
const { pool, closeDb } = await import("../lib/db");
const { ensureBootstrapRecords } = await import("../lib/domain/ensure-bootstrap-records");
await ensureBootstrapRecords();
const dataset = await loadClassifyDataset(pool(), { subjects: SUBJECTS, seen: 10, sets: 2, heavyUsers: 2 });

ensureBuild("bench:pages");
// A proxy (middleware) in the build: Next lists it in the middleware manifest.
const middlewareManifest = JSON.parse(fs.readFileSync(".next/server/middleware-manifest.json", "utf8"));
const functionsManifest = fs.existsSync(".next/server/functions-config-manifest.json") ? JSON.parse(fs.readFileSync(".next/server/functions-config-manifest.json", "utf8")) : {};
const proxyInBuild = Object.keys(middlewareManifest.middleware ?? {}).length > 0 || Object.keys(functionsManifest.functions ?? {}).some((k) => /middleware|proxy/.test(k));

const app = startProductionServer(PORT, { WEB_CONCURRENCY: "1" });
process.on("SIGINT", () => void app.stop().then(() => process.exit(130)));

/** One GET's status and headers (a fresh connection: only for the header samples). */
function headersOf(path: string, accept: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port: PORT, path, headers: { accept } }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on("error", reject);
  });
}

interface Route {
  name: string;
  path: string;
  accept: string;
  expected: number;
}
const routes: Route[] = [
  { name: "noop", path: "/api/bench-noop", accept: "application/vnd.api+json; version=1", expected: 404 },
  { name: "home", path: "/", accept: HTML, expected: 200 },
  { name: "classify", path: `/projects/${dataset.project}/classify`, accept: HTML, expected: 200 },
];

/** `concurrency` clients sending GETs of `route` back to back for `seconds`. */
async function slice(route: Route, seconds: number, concurrency: number) {
  const latencies: number[] = [];
  let failures = 0;
  const until = performance.now() + seconds * 1000;
  const cpu0 = cpuSnapshot({ web: app.server.pid });
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        const status = await app.request("GET", route.path, undefined, undefined, route.accept);
        if (status !== route.expected) failures++;
        latencies.push(performance.now() - t);
      }
    }),
  );
  const wall = performance.now() - t0;
  return { latencies, wall, failures, cpu: cpuPerRequest(cpu0, cpuSnapshot({ web: app.server.pid }), latencies.length) };
}

/** Every route in alternating slices: ROUNDS of each, SECONDS in all per route, after a warm-up of each. */
async function alternating(concurrency: number) {
  console.error(`[bench:pages] ${routes.map((r) => r.name).join(", ")} alternately at ${concurrency} concurrent`);
  for (const route of routes) await slice(route, WARMUP_SECONDS, concurrency);
  const acc = new Map(routes.map((r) => [r.name, { latencies: [] as number[], wall: 0, failures: 0, webCpu: [] as number[] }]));
  for (let i = 0; i < ROUNDS; i++) {
    for (const route of routes) {
      const res = await slice(route, SECONDS / ROUNDS, concurrency);
      const a = acc.get(route.name)!;
      a.latencies.push(...res.latencies);
      a.wall += res.wall;
      a.failures += res.failures;
      a.webCpu.push(res.cpu.web ?? 0);
    }
  }
  const out: Record<string, unknown> = {};
  for (const [name, a] of acc) {
    const webCpu = [...a.webCpu].sort((x, y) => x - y)[Math.floor(a.webCpu.length / 2)];
    out[name] = { ...summarize(a.latencies, a.wall), concurrency, failures: a.failures, web_cpu_ms_per_request: webCpu };
  }
  const s = (n: string) => out[n] as ReturnType<typeof summarize>;
  const r = (x: number) => Math.round(x * 1000) / 1000;
  out.vs_noop = Object.fromEntries(
    routes
      .filter((x) => x.name !== "noop")
      .map((x) => [x.name, { throughput_ratio: r(s(x.name).throughput_per_s / s("noop").throughput_per_s), p50_minus_noop_ms: r(s(x.name).p50_ms - s("noop").p50_ms) }]),
  );
  return out;
}

try {
  await app.ready();
  // What each route answers with: the script-src of its policy, and the nonces on the page's script tags.
  const samples: Record<string, unknown> = {};
  for (const route of routes) {
    const res = await headersOf(route.path, route.accept);
    const csp = String(res.headers["content-security-policy"] ?? "");
    const nonces = new Set([...res.body.matchAll(/<script[^>]*\snonce="([^"]+)"/g)].map((m) => m[1]));
    const scripts = [...res.body.matchAll(/<script[\s>]/g)].length;
    samples[route.name] = { status: res.status, script_src: csp.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src"))?.replace(/'nonce-[^']+'/, "'nonce-…'") ?? null, html_script_tags: scripts, script_tags_with_nonce: [...res.body.matchAll(/<script[^>]*\snonce="/g)].length, distinct_nonces: nonces.size };
  }
  const one = await alternating(1);
  const many = await alternating(CONCURRENCY);
  console.log(
    JSON.stringify(
      {
        benchmark: "pages over http",
        node: process.version,
        cores: os.cpus().length,
        proxy_in_build: proxyInBuild,
        layout: "npm start with WORKER=off, plus one npm run worker process; load generator in this process over loopback HTTP keep-alive; no session",
        subjects: dataset.subjects,
        seconds_per_route: SECONDS,
        rounds: ROUNDS,
        answers: samples,
        [`c1`]: one,
        [`c${CONCURRENCY}`]: many,
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
