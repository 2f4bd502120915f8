// npm run bench:lists (or npm run bench:http -- --lists) — the large lists over HTTP at the established
// platform's sizes: the production server (`npm start` with WORKER=off and one worker, as bench:http) on
// the bench:dataset database (bench/big-dataset.ts: made on first use, reused after), and for each list
// its first page, a deep `page=` page (the middle of the scope; page 20,000 for classifications) and a
// `last_id` walk following next_href (or the engine's Link header) from the first page, page after page,
// beside the no-op route (the /api catch-all's 404) measured in alternating slices with each first page. One client, keep-alive HTTP over
// loopback, Accept-Encoding gzip as real clients send. Prints JSON; every figure is in milliseconds.
// BENCH_SECONDS (default 6): each first page's time (half of it the no-op's); BENCH_DEEP_REQUESTS (5);
// BENCH_WALK_PAGES (200) of BENCH_WALK_PAGE_SIZE (100); BENCH_LISTS=a,b runs only those lists.
import "../scripts/require-node";
import { fork } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { issueToken } from "../lib/auth/tokens";
import { openBigDataset } from "./big-dataset";
import { listClient, type WalkPages } from "./list-client";
import { summarize } from "./lib";
import { ACCEPT, ensureBuild, startProductionServer } from "./server";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const DEEP_REQUESTS = Number(process.env.BENCH_DEEP_REQUESTS ?? 5);
const WALK_PAGES = Number(process.env.BENCH_WALK_PAGES ?? 200);
const WALK_PAGE_SIZE = Number(process.env.BENCH_WALK_PAGE_SIZE ?? 100);
const PORT = Number(process.env.BENCH_PORT ?? 3960);
const ONLY = process.env.BENCH_LISTS ? new Set(process.env.BENCH_LISTS.split(",").map((s) => s.trim())) : null;
const load = () => os.loadavg().map((x) => Math.round(x * 100) / 100);

const loadAtStart = load();
const ds = await openBigDataset();
const { sql, info } = ds;
const { ensureBootstrapRecords } = await import("../lib/domain/ensure-bootstrap-records");
await ensureBootstrapRecords();
const oauth = (await sql.query(`SELECT id, client_id FROM oauth_applications WHERE first_party LIMIT 1`)).rows[0];
const tokenOf = async (id: number) => {
  const u = (await sql.query(`SELECT id, login, display_name AS "displayName", admin FROM users WHERE id = $1`, [id])).rows[0];
  return (await issueToken(oauth.id, oauth.client_id, u, ["public", "classification", "project"])).access_token;
};
const owner = await tokenOf(info.owner);
const heavy = await tokenOf(info.heavyVolunteer);

ensureBuild("lists");
const app = startProductionServer(PORT, { WEB_CONCURRENCY: process.env.WEB_CONCURRENCY ?? "1" });
process.on("SIGINT", () => void app.stop().then(() => process.exit(130)));

const client = listClient(PORT, ACCEPT);
const { get, timedCall } = client;

/** Calls for `seconds`, one at a time; latencies. */
async function slice(seconds: number, path: string, token: string | undefined, expected: number): Promise<number[]> {
  const out: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) out.push((await timedCall(path, token, expected)).ms);
  return out;
}

const noopPath = "/api/bench-noop";
/** The path's first page and the no-op route in alternating slices (3 of each), after a warm-up of both. */
async function firstPage(path: string, token?: string) {
  await slice(1, noopPath, token, 404);
  await slice(1, path, token, 200);
  const list: number[] = [];
  const noop: number[] = [];
  const t0 = performance.now();
  for (let r = 0; r < 3; r++) {
    noop.push(...(await slice(SECONDS / 6, noopPath, token, 404)));
    list.push(...(await slice(SECONDS / 6, path, token, 200)));
  }
  const wall = performance.now() - t0;
  const meta = (await get(path, token)).body;
  return { path, ...summarize(list, wall / 2), noop: summarize(noop, wall / 2), count: countOf(meta) };
}

/** meta's count and count_source of a JSON-API answer (engine lists have none). */
function countOf(body: string): { count: number; count_source: string } | undefined {
  const meta = (JSON.parse(body) as { meta?: Record<string, { count?: number; count_source?: string }> }).meta;
  const m = meta && Object.values(meta)[0];
  return m?.count_source ? { count: m.count!, count_source: m.count_source } : undefined;
}

async function deepPage(path: string, token?: string) {
  const ms: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < DEEP_REQUESTS; i++) ms.push((await timedCall(path, token, 200)).ms);
  return { path, ...summarize(ms, performance.now() - t0) };
}

/**
 * Follows the next page from `start` (meta next_href, or the Link header) for WALK_PAGES pages, in a small
 * process of its own (bench/walk-process.ts): this one's heap (the dataset's pool, the app's modules) made
 * its own collections land inside the walk's pages.
 */
async function walk(start: string, token?: string) {
  const t0 = performance.now();
  const child = fork(path.resolve("bench/walk-process.ts"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const answer = await new Promise<{ ok: boolean; result?: WalkPages; error?: string }>((resolve, reject) => {
    child.once("message", (m) => resolve(m as { ok: boolean; result?: WalkPages; error?: string }));
    child.once("exit", (code) => reject(new Error(`the walk's process ended (${code}) without an answer`)));
    child.send({ port: PORT, accept: ACCEPT, start, token, pages: WALK_PAGES });
  });
  if (!answer.ok || !answer.result) throw new Error(`walk ${start}: ${answer.error}`);
  const { ms, rows, last_path, slow_pages } = answer.result;
  const s = summarize(ms, performance.now() - t0);
  return {
    start,
    pages: ms.length,
    rows,
    last_path,
    p50_ms: s.p50_ms,
    p99_ms: s.p99_ms,
    max_ms: s.max_ms,
    over_50_ms: ms.filter((x) => x >= 50).length,
    slow_pages,
    total_s: Math.round(performance.now() - t0) / 1000,
  };
}

const B = info.bigProject;
const W = info.bigWorkflow;
const lastSet = info.bigSets[info.bigSets.length - 1];
const perSet = info.bigProjectSubjects / info.bigSets.length;
const half = (rows: number, size = 20) => Math.max(2, Math.floor(rows / size / 2));
const ws = WALK_PAGE_SIZE;
// name → [first page path, token, deep page path | null, walk start | null]
const lists: [string, string, string | undefined, string | null, string | null][] = [
  // Classifications' deep page is the issue's page=20000 (offset 400,000; the heavy volunteer's last page).
  [
    "volunteer_classifications",
    "/api/classifications",
    heavy,
    `/api/classifications?page=${Math.min(20_000, 2 * half(info.heavyVolunteerClassifications))}`,
    `/api/classifications?sort=id&page_size=${ws}`,
  ],
  [
    "project_classifications",
    `/api/classifications/project?project_id=${B}`,
    owner,
    `/api/classifications/project?project_id=${B}&page=${Math.min(20_000, half(info.sizes.classifications * 0.6))}`,
    `/api/classifications/project?project_id=${B}&page_size=${ws}`,
  ],
  [
    "workflow_classifications",
    `/api/classifications/project?workflow_id=${W}`,
    owner,
    null,
    `/api/classifications/project?project_id=${B}&workflow_id=${W}&page_size=${ws}&last_id=${Math.floor(info.sizes.classifications / 2)}`,
  ],
  [
    "project_subjects",
    `/api/subjects?project_id=${B}`,
    undefined,
    `/api/subjects?project_id=${B}&page=${half(info.bigProjectSubjects)}`,
    `/api/subjects?project_id=${B}&sort=id&page_size=${ws}`,
  ],
  [
    "set_subjects",
    `/api/subjects?subject_set_id=${lastSet}`,
    undefined,
    `/api/subjects?subject_set_id=${lastSet}&page=${half(perSet)}`,
    `/api/subjects?subject_set_id=${lastSet}&sort=id&page_size=${ws}`,
  ],
  [
    "set_member_subjects",
    `/api/set_member_subjects?subject_set_id=${lastSet}`,
    undefined,
    `/api/set_member_subjects?subject_set_id=${lastSet}&page=${half(perSet)}`,
    `/api/set_member_subjects?subject_set_id=${lastSet}&sort=id&page_size=${ws}`,
  ],
  ["projects", "/api/projects", undefined, `/api/projects?page=${half(info.sizes.projects)}`, null],
  ["users", "/api/users", undefined, `/api/users?page=${half(info.sizes.users)}`, null],
  ["engine_extracts", `/engine/workflows/${W}/extracts`, owner, null, `/engine/workflows/${W}/extracts?last_id=0&page_size=${ws}`],
  [
    "engine_reductions",
    `/engine/workflows/${W}/reductions?last_id=0`,
    owner,
    `/engine/workflows/${W}/reductions?page=${half(info.sizes.reductions)}`,
    `/engine/workflows/${W}/reductions?last_id=0&page_size=${ws}`,
  ],
  ["engine_reductions_newest_first", `/engine/workflows/${W}/reductions`, owner, null, null],
];

const results: Record<string, unknown> = {};
try {
  await app.ready();
  for (const [name, first, token, deep, walkStart] of lists) {
    if (ONLY && !ONLY.has(name)) continue;
    console.error(`[lists] ${name}`);
    results[name] = {
      first_page: await firstPage(first, token),
      deep_page: deep ? await deepPage(deep, token) : null,
      walk: walkStart ? await walk(walkStart, token) : null,
    };
  }
  const firstP50 = Object.entries(results).map(([k, v]) => [k, (v as { first_page: { p50_ms: number } }).first_page.p50_ms] as const);
  const walkMax = Object.entries(results).flatMap(([k, v]) =>
    (v as { walk: { max_ms: number } | null }).walk ? [[k, (v as { walk: { max_ms: number } }).walk.max_ms] as const] : [],
  );
  console.log(
    JSON.stringify(
      {
        benchmark: "lists",
        node: process.version,
        cores: os.cpus().length,
        layout: "npm start with WORKER=off, plus one npm run worker process; one client in this process over loopback HTTP keep-alive",
        dataset: {
          ...info.sizes,
          big_project: B,
          big_project_subjects: info.bigProjectSubjects,
          heavy_volunteer_classifications: info.heavyVolunteerClassifications,
          reused: ds.reused,
          generation_s: info.generationSeconds,
        },
        load_average: { at_start: loadAtStart, at_end: load() },
        seconds_per_first_page: SECONDS,
        walk: { pages: WALK_PAGES, page_size: WALK_PAGE_SIZE },
        targets: {
          first_page_p50_under_50_ms: firstP50.every(([, v]) => v < 50),
          first_page_misses: firstP50.filter(([, v]) => v >= 50).map(([k]) => k),
          walk_pages_all_under_50_ms: walkMax.every(([, v]) => v < 50),
          walk_misses: walkMax.filter(([, v]) => v >= 50).map(([k]) => k),
        },
        lists: results,
      },
      null,
      2,
    ),
  );
} finally {
  client.close();
  await app.stop();
  await ds.stop();
}
process.exit(0);
