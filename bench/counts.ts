// npm run bench:counts — 10,000,000 classifications over 3 years across 100 projects and 500 workflows,
// folded into the counts rollups as the server does, then GET /counts/classifications for each period with
// and without filters. Prints JSON. Size: BENCH_CLASSIFICATIONS (default 10000000).
import { benchDatabase, load, summarize } from "./lib";

const TOTAL = Number(process.env.BENCH_CLASSIFICATIONS ?? 10_000_000);
const PROJECTS = 100;
const WORKFLOWS = 500;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const CHUNK = 1_000_000;

const database = await benchDatabase();
const { pool, closeDb } = await import("../lib/db");
const { foldClassificationCounts } = await import("../lib/domain/fold-classification-counts");
const { GET: counts } = await import("../app/counts/classifications/route");
const sql = pool();

// Classifications spread uniformly over three years ending today; workflow w belongs to project w % 100.
const tGen = performance.now();
for (let done = 0; done < TOTAL; done += CHUNK) {
  const n = Math.min(CHUNK, TOTAL - done);
  await sql.query(
    `WITH c AS (
       INSERT INTO classifications (project_id, workflow_id, subject_ids, workflow_version, created_at, updated_at)
       SELECT 1 + (w % $2), 1 + w, ARRAY[1], '1.1', t, t
       FROM (SELECT (random() * ($3 - 1))::int AS w, now() - random() * interval '1095 days' AS t FROM generate_series(1, $1)) g
       RETURNING id, project_id, workflow_id, created_at)
     INSERT INTO classification_count_outbox (classification_id, project_id, workflow_id, created_at) SELECT id, project_id, workflow_id, created_at FROM c`,
    [n, PROJECTS, WORKFLOWS],
  );
}
const generationSeconds = (performance.now() - tGen) / 1000;
const tFold = performance.now();
const folded = await foldClassificationCounts();
const foldSeconds = (performance.now() - tFold) / 1000;
await sql.query("ANALYZE");

const params = { params: Promise.resolve({}) };
const filters: Record<string, string> = {
  none: "",
  project: "project_id=7",
  projects_3: "project_id=7,8,9",
  workflow: "workflow_id=42",
  workflows_5: "workflow_id=42,43,44,45,46",
};
const year = new Date().getUTCFullYear();
const results: Record<string, unknown> = {};
for (const [name, filter] of Object.entries(filters)) {
  for (const period of ["", "day", "week", "month", "year"]) {
    for (const range of ["", `start_date=${year - 2}-03-01&end_date=${year - 1}-10-31`]) {
      const q = [filter, period && `period=${period}`, range].filter(Boolean).join("&");
      const get = async () => {
        const res = await counts(new Request(`http://bench/counts/classifications?${q}`), params);
        if (res.status !== 200) throw new Error(`${q}: ${res.status}`);
        await res.arrayBuffer();
      };
      for (let i = 0; i < 5; i++) await get();
      const run = await load(REQUESTS, 1, get);
      results[`${name}|${period || "total"}|${range ? "range" : "all_time"}`] = summarize(run.latencies, run.wallMs);
    }
  }
}
const p50s = Object.values(results).map((r) => (r as { p50_ms: number }).p50_ms);
console.log(
  JSON.stringify(
    {
      benchmark: "counts",
      classifications: TOTAL,
      projects: PROJECTS,
      workflows: WORKFLOWS,
      data_generation_s: Math.round(generationSeconds * 10) / 10,
      rollup_fold_s: Math.round(foldSeconds * 10) / 10,
      folded,
      worst_p50_ms: Math.max(...p50s),
      endpoints: results,
    },
    null,
    2,
  ),
);
await closeDb();
await database.stop();
process.exit(0);
