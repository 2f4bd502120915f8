// npm run bench:pages — what an HTML page costs over HTTP: the production server (as `npm start` runs it,
// WORKER=off with one `npm run worker` beside it) on a small classifying dataset (BENCH_SUBJECTS, default
// 2,000), and from this process keep-alive GETs over loopback of the home page `/` and the classify page
// `/projects/<id>/classify` as a browser without a session asks for them (Accept: text/html, gzip), beside
// the no-op route (the /api catch-all's 404: the framework's own ceiling, which no proxy matcher covers).
// The three are measured in alternating slices (BENCH_ROUNDS of each, BENCH_SECONDS in all per route) at
// one client and at BENCH_CONCURRENCY (16), so all three see the same machine; the report gives throughput,
// p50/p99, the web process's CPU per request, each page against the no-op route, whether the build has a
// proxy, and the script-src each answer carried. Prints JSON. BENCH_BUILD=0 skips `next build` when a build
// exists. BENCH_COMPARE_DIR=<another checkout with its own production build and node_modules> starts a
// second server from there on the same database and measures every route on both in alternating slices, so
// two builds (say, with and without a proxy) are compared on the same machine at the same time: on a shared
// machine, runs one after the other differ by more than such a change.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { loadClassifyDataset } from "./classify-dataset";
import { benchDatabase, summarize } from "./lib";
import { cpuPerRequest, cpuSnapshot } from "./process-cpu";
import { ensureBuild, startProductionServer, type ProductionServer } from "./server";

const SUBJECTS = Number(process.env.BENCH_SUBJECTS ?? 2_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PORT = Number(process.env.BENCH_PORT ?? 3970);
const HTML = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const COMPARE_DIR = process.env.BENCH_COMPARE_DIR;

const database = await benchDatabase();
const { pool, closeDb } = await import("../lib/db");
const { ensureBootstrapRecords } = await import("../lib/domain/ensure-bootstrap-records");
await ensureBootstrapRecords();
const dataset = await loadClassifyDataset(pool(), { subjects: SUBJECTS, seen: 10, sets: 2, heavyUsers: 2 });

ensureBuild("bench:pages");
if (COMPARE_DIR && !fs.existsSync(path.join(COMPARE_DIR, ".next/BUILD_ID"))) throw new Error(`${COMPARE_DIR} has no production build`);

/** Whether the build in `dir` has a proxy (middleware): Next lists it in its manifests. */
function proxyInBuild(dir: string): boolean {
  const read = (f: string) => (fs.existsSync(path.join(dir, f)) ? JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) : {});
  return (
    Object.keys(read(".next/server/middleware-manifest.json").middleware ?? {}).length > 0 ||
    Object.keys(read(".next/server/functions-config-manifest.json").functions ?? {}).some((k) => /middleware|proxy/.test(k))
  );
}

interface Server {
  name: string;
  dir: string;
  app: ProductionServer;
}
const servers: Server[] = [{ name: "this", dir: process.cwd(), app: startProductionServer(PORT, { WEB_CONCURRENCY: "1" }) }];
const stopAll = () => Promise.all(servers.map((s) => s.app.stop()));
process.on("SIGINT", () => void stopAll().then(() => process.exit(130)));

/** One GET's status and headers (a fresh connection: only for the header samples). */
function headersOf(port: number, path: string, accept: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, headers: { accept } }, (res) => {
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

/** `concurrency` clients sending GETs of `route` to `app` back to back for `seconds`. */
async function slice(app: ProductionServer, route: Route, seconds: number, concurrency: number) {
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

const r3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Every route on every server in alternating slices: ROUNDS of each, SECONDS in all per route and server,
 * after a warm-up of each. Per server: each route's figures and each page against the no-op route; with two
 * servers, each route on the second against the first.
 */
async function alternating(concurrency: number) {
  console.error(
    `[bench:pages] ${routes.map((r) => r.name).join(", ")} alternately${servers.length > 1 ? " on both servers" : ""} at ${concurrency} concurrent`,
  );
  for (const route of routes) for (const { app } of servers) await slice(app, route, WARMUP_SECONDS, concurrency);
  const key = (s: Server, r: Route) => `${s.name} ${r.name}`;
  const acc = new Map(
    servers.flatMap((s) => routes.map((r) => [key(s, r), { latencies: [] as number[], wall: 0, failures: 0, webCpu: [] as number[] }])),
  );
  for (let i = 0; i < ROUNDS; i++) {
    for (const route of routes) {
      for (const server of i % 2 ? [...servers].reverse() : servers) {
        const res = await slice(server.app, route, SECONDS / ROUNDS, concurrency);
        const a = acc.get(key(server, route))!;
        a.latencies.push(...res.latencies);
        a.wall += res.wall;
        a.failures += res.failures;
        a.webCpu.push(res.cpu.web ?? 0);
      }
    }
  }
  type Figures = ReturnType<typeof summarize> & { concurrency: number; failures: number; web_cpu_ms_per_request: number };
  const figures = (s: Server, r: Route): Figures => {
    const a = acc.get(key(s, r))!;
    const webCpu = [...a.webCpu].sort((x, y) => x - y)[Math.floor(a.webCpu.length / 2)];
    return { ...summarize(a.latencies, a.wall), concurrency, failures: a.failures, web_cpu_ms_per_request: webCpu };
  };
  const out: Record<string, unknown> = {};
  for (const server of servers) {
    const f = Object.fromEntries(routes.map((r) => [r.name, figures(server, r)]));
    const vsNoop = Object.fromEntries(
      routes
        .filter((r) => r.name !== "noop")
        .map((r) => [
          r.name,
          {
            throughput_ratio: r3(f[r.name].throughput_per_s / f.noop.throughput_per_s),
            p50_minus_noop_ms: r3(f[r.name].p50_ms - f.noop.p50_ms),
          },
        ]),
    );
    out[server.name] = { ...f, vs_noop: vsNoop };
  }
  if (servers.length > 1) {
    const [a, b] = servers;
    out.compare_vs_this = Object.fromEntries(
      routes.map((r) => {
        const [x, y] = [figures(a, r), figures(b, r)];
        return [
          r.name,
          {
            throughput_ratio: r3(y.throughput_per_s / x.throughput_per_s),
            p50_diff_ms: r3(y.p50_ms - x.p50_ms),
            p99_diff_ms: r3(y.p99_ms - x.p99_ms),
            web_cpu_diff_ms: r3(y.web_cpu_ms_per_request - x.web_cpu_ms_per_request),
          },
        ];
      }),
    );
  }
  return out;
}

try {
  await servers[0].app.ready();
  // The second server once the first is up: both would apply migrations at once and one would time out.
  if (COMPARE_DIR) {
    servers.push({
      name: "compare",
      dir: path.resolve(COMPARE_DIR),
      app: startProductionServer(PORT + 1, { WEB_CONCURRENCY: "1" }, undefined, path.resolve(COMPARE_DIR)),
    });
    await servers[1].app.ready();
  }
  // What each route answers with: the script-src of its policy, and the nonces on the page's script tags.
  const builds: Record<string, unknown> = {};
  for (const server of servers) {
    const answers: Record<string, unknown> = {};
    for (const route of routes) {
      const res = await headersOf(server.app.port, route.path, route.accept);
      const scriptSrc = String(res.headers["content-security-policy"] ?? "")
        .split(";")
        .map((d) => d.trim())
        .find((d) => d.startsWith("script-src"));
      const tags = [...res.body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      const nonces = new Set(tags.map((t) => /\snonce="([^"]+)"/.exec(t)?.[1]).filter(Boolean));
      answers[route.name] = {
        status: res.status,
        script_src: scriptSrc?.replace(/'nonce-[^']+'/, "'nonce-…'") ?? null,
        html_script_tags: tags.length,
        script_tags_with_nonce: tags.filter((t) => /\snonce="/.test(t)).length,
        distinct_nonces: nonces.size,
      };
    }
    builds[server.name] = { dir: server.dir, port: server.app.port, proxy_in_build: proxyInBuild(server.dir), answers };
  }
  const one = await alternating(1);
  const many = await alternating(CONCURRENCY);
  console.log(
    JSON.stringify(
      {
        benchmark: "pages over http",
        node: process.version,
        cores: os.cpus().length,
        layout:
          "npm start with WORKER=off, plus one npm run worker process; load generator in this process over loopback HTTP keep-alive; no session",
        subjects: dataset.subjects,
        seconds_per_route: SECONDS,
        rounds: ROUNDS,
        builds,
        c1: one,
        [`c${CONCURRENCY}`]: many,
      },
      null,
      2,
    ),
  );
} finally {
  await stopAll();
  await closeDb();
  await database.stop();
}
process.exit(0);
