// npm run bench:engine — the decision engine end to end, in the default (no Inngest) mode: classifications
// created through the real route handler, the in-process worker running extract → reduce → rules →
// retire. Measures create-to-retirement latency (p50/p99, from database timestamps: the retiring
// classification's created_at to the retire action's performed_at) and sustained pipeline throughput
// (classifications fully processed per second). Question extractor, consensus reducer, one rule. Prints JSON.
// Sizes: BENCH_LATENCY_SUBJECTS (default 300), BENCH_THROUGHPUT (classifications, default 6000),
// BENCH_BACKLOG (classifications queued while no worker runs, then drained; default 3000).
import { benchDatabase, load, percentile, summarize } from "./lib";

const LATENCY_SUBJECTS = Number(process.env.BENCH_LATENCY_SUBJECTS ?? 300);
const THROUGHPUT = Number(process.env.BENCH_THROUGHPUT ?? 6000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 3000);

const database = await benchDatabase();
const { pool, closeDb } = await import("../lib/db");
const { issueToken } = await import("../lib/auth/tokens");
const { ensureBootstrapRecords } = await import("../lib/domain/ensure-bootstrap-records");
const { startWorker, stopWorker } = await import("../lib/jobs/worker");
const { saveEngineWorkflow } = await import("../lib/engine/run/workflow-config");
const { parseEngineWorkflowConfig } = await import("../lib/engine/config");
const { withTransaction } = await import("../lib/db/sql");
const { POST: createClassification } = await import("../app/api/classifications/route");
await ensureBootstrapRecords();
const sql = pool();

const SUBJECTS = LATENCY_SUBJECTS + Math.ceil(THROUGHPUT / 3);
await sql.query(`INSERT INTO users (login, email, encrypted_password, display_name, updated_at)
  SELECT 'eng' || g, 'eng' || g || '@example.test', 'x', 'Engine ' || g, now() FROM generate_series(1, 300) g ON CONFLICT DO NOTHING`);
const owner = (await sql.query(`SELECT id FROM users WHERE login = 'eng1'`)).rows[0].id;
const project = (
  await sql.query(
    `INSERT INTO projects (owner_id, display_name, slug, updated_at) VALUES ($1, 'Engine bench ' || now(), 'eng/p', now()) RETURNING id`,
    [owner],
  )
).rows[0].id;
const workflow = (
  await sql.query(
    `INSERT INTO workflows (project_id, display_name, tasks, first_task, retirement, updated_at)
  VALUES ($1, 'Bench', '{"T0":{"type":"single","question":"?","answers":[{"label":"a"},{"label":"b"}]}}', 'T0',
          '{"criteria":"never_retire"}', now()) RETURNING id`,
    [project],
  )
).rows[0].id;
const set = (
  await sql.query(
    `INSERT INTO subject_sets (project_id, display_name, set_member_subjects_count, updated_at) VALUES ($1, 'Set', $2, now()) RETURNING id`,
    [project, SUBJECTS],
  )
).rows[0].id;
await sql.query(`INSERT INTO workflow_subject_sets (workflow_id, subject_set_id) VALUES ($1, $2)`, [workflow, set]);
const subjects: number[] = (
  await sql.query(
    `WITH s AS (INSERT INTO subjects (project_id, metadata, locations, updated_at)
      SELECT $1, jsonb_build_object('n', g::text), '[]', now() FROM generate_series(1, $2) g RETURNING id)
     INSERT INTO set_member_subjects (subject_set_id, subject_id) SELECT $3, id FROM s RETURNING subject_id`,
    [project, SUBJECTS, set],
  )
).rows
  .map((r) => r.subject_id as number)
  .sort((a, b) => a - b);
const config = parseEngineWorkflowConfig({
  id: workflow,
  extractors_config: { q: { type: "question", task_key: "T0" } },
  reducers_config: { c: { type: "consensus" } },
  rules_config: [{ if: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]], then: [{ action: "retire_subject", reason: "consensus" }] }],
});
if (!config.ok) throw new Error(config.message);
await withTransaction((client) => saveEngineWorkflow(client, config.value, project));
await sql.query(`ANALYZE`);

const app = (await sql.query(`SELECT id, client_id FROM oauth_applications WHERE first_party LIMIT 1`)).rows[0];
const users = (await sql.query(`SELECT id, login, display_name AS "displayName", admin FROM users WHERE login LIKE 'eng%' ORDER BY id`))
  .rows;
const tokens = await Promise.all(
  users.map(async (u) => (await issueToken(app.id, app.client_id, u, ["public", "classification", "project"])).access_token),
);
const params = { params: Promise.resolve({}) };
const classify = async (subjectId: number, userIndex: number, answer: number) => {
  const body = {
    classifications: {
      annotations: [{ task: "T0", value: answer }],
      metadata: {
        started_at: new Date().toISOString(),
        finished_at: new Date().toISOString(),
        user_agent: "bench",
        user_language: "en",
        workflow_version: "1.1",
      },
      links: { project: String(project), workflow: String(workflow), subjects: [String(subjectId)] },
    },
  };
  const headers = {
    accept: "application/vnd.api+json; version=1",
    "content-type": "application/json",
    authorization: `Bearer ${tokens[userIndex % tokens.length]}`,
  };
  const res = await createClassification(
    new Request("http://bench/api/classifications", { method: "POST", headers, body: JSON.stringify(body) }),
    params,
  );
  if (res.status !== 201) throw new Error(`create ${res.status}: ${await res.text()}`);
  return Number(((await res.json()) as { classifications: { id: string }[] }).classifications[0].id);
};
const pendingJobs = async () =>
  (
    await sql.query(
      `SELECT (SELECT count(*) FROM graphile_worker.jobs WHERE task_identifier LIKE 'engine/%') + (SELECT count(*) FROM engine_inbox) AS n`,
    )
  ).rows[0].n as number;
async function drained(timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while ((await pendingJobs()) > 0) {
    if (Date.now() > deadline) throw new Error("pipeline did not drain");
    await new Promise((r) => setTimeout(r, 20));
  }
}

await startWorker(Number(process.env.WORKER_CONCURRENCY ?? 8));

// Latency: volunteers classify subjects at a steady pace; the third agreeing answer retires each one.
const retiring: { subject: number; classification: number }[] = [];
const latencyRun = await load(LATENCY_SUBJECTS, 4, async (i) => {
  const subject = subjects[i];
  await classify(subject, i * 3, 0);
  await classify(subject, i * 3 + 1, 0);
  retiring.push({ subject, classification: await classify(subject, i * 3 + 2, 0) });
});
await drained(120_000);
const { rows: lat } = await sql.query(
  `SELECT extract(epoch FROM (a.performed_at - c.created_at)) * 1000 AS ms
   FROM unnest($1::int[], $2::int[]) AS r(subject_id, classification_id)
   JOIN classifications c ON c.id = r.classification_id
   JOIN engine_actions a ON a.workflow_id = $3 AND a.subject_id = r.subject_id AND a.status = 'completed'`,
  [retiring.map((r) => r.subject), retiring.map((r) => r.classification), workflow],
);
const latencies = lat.map((r) => Number(r.ms)).sort((a, b) => a - b);
const retired = (
  await sql.query(`SELECT count(*)::int AS n FROM subject_workflow_statuses WHERE workflow_id = $1 AND retired_at IS NOT NULL`, [workflow])
).rows[0].n;

// Throughput: classifications arrive as fast as CONCURRENCY clients can send them; the clock stops when
// the last one has been extracted, reduced, evaluated and acted on.
const rest = subjects.slice(LATENCY_SUBJECTS);
const t0 = performance.now();
const creates = await load(THROUGHPUT, CONCURRENCY, async (i) => {
  await classify(rest[i % rest.length], 1000 + i, i % 4 === 0 ? 1 : 0);
});
await drained(600_000);
const pipelineMs = performance.now() - t0;
const extracts = (await sql.query(`SELECT count(*)::int AS n FROM extracts WHERE workflow_id = $1`, [workflow])).rows[0].n;

// Backlog: classifications stored while no worker runs (an outage, a deploy), then worked off: the
// pipeline's own throughput, without clients competing for the machine.
await stopWorker();
const backlogSubjects = subjects.slice(0, Math.ceil(BACKLOG / 3));
await load(BACKLOG, CONCURRENCY, async (i) => {
  await classify(backlogSubjects[i % backlogSubjects.length], 5000 + i, 1);
});
const tb = performance.now();
await startWorker(Number(process.env.WORKER_CONCURRENCY ?? 8));
await drained(600_000);
const backlogMs = performance.now() - tb;
const backlogExtracts =
  (await sql.query(`SELECT count(*)::int AS n FROM extracts WHERE workflow_id = $1`, [workflow])).rows[0].n - extracts;

const r = (n: number) => Math.round(n * 100) / 100;
console.log(
  JSON.stringify(
    {
      benchmark: "engine-pipeline",
      mode: "graphile-worker (no Inngest server)",
      pipeline: "question extractor → consensus reducer → 1 rule → retire_subject",
      create_to_retirement: {
        subjects: LATENCY_SUBJECTS,
        retired,
        p50_ms: r(percentile(latencies, 50)),
        p99_ms: r(percentile(latencies, 99)),
        max_ms: r(latencies[latencies.length - 1]),
        classification_create: summarize(latencyRun.latencies, latencyRun.wallMs),
      },
      sustained: {
        classifications: THROUGHPUT,
        concurrency: CONCURRENCY,
        create: summarize(creates.latencies, creates.wallMs),
        processed_extracts: extracts - LATENCY_SUBJECTS * 3,
        pipeline_wall_s: r(pipelineMs / 1000),
        pipeline_throughput_per_s: r((THROUGHPUT / pipelineMs) * 1000),
      },
      backlog: {
        classifications: BACKLOG,
        processed_extracts: backlogExtracts,
        drain_s: r(backlogMs / 1000),
        throughput_per_s: r((BACKLOG / backlogMs) * 1000),
      },
    },
    null,
    2,
  ),
);
await stopWorker();
await closeDb();
await database.stop();
process.exit(0);
