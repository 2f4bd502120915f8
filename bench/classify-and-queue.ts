// npm run bench:classify — 1,000,000 subjects in 10 sets; queue requests for volunteers with long seen
// histories, and classification creates under concurrency, through the real route handlers. Prints JSON.
// Sizes: BENCH_SUBJECTS (default 1000000), BENCH_SEEN (seen subjects per heavy user, default 20000).
import { benchDatabase, load, summarize } from "./lib";

const SUBJECTS = Number(process.env.BENCH_SUBJECTS ?? 1_000_000);
const SETS = 10;
const SEEN = Number(process.env.BENCH_SEEN ?? 20_000);
const HEAVY_USERS = 20;
const QUEUE_REQUESTS = Number(process.env.BENCH_QUEUE_REQUESTS ?? 2000);
const CREATES = Number(process.env.BENCH_CREATES ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

const database = await benchDatabase();
const { pool, closeDb } = await import("../lib/db");
const { issueToken } = await import("../lib/auth/tokens");
const { ensureBootstrapRecords } = await import("../lib/domain/ensure-bootstrap-records");
const { GET: queued } = await import("../app/api/subjects/queued/route");
const { POST: createClassification } = await import("../app/api/classifications/route");
await ensureBootstrapRecords();
const sql = pool();

const tGen = performance.now();
await sql.query(`INSERT INTO users (login, email, encrypted_password, display_name, updated_at)
  SELECT 'bench' || g, 'bench' || g || '@example.test', 'x', 'Bench ' || g, now() FROM generate_series(1, 400) g ON CONFLICT DO NOTHING`);
const owner = (await sql.query(`SELECT id FROM users WHERE login = 'bench1'`)).rows[0].id;
const project = (await sql.query(`INSERT INTO projects (owner_id, display_name, slug, updated_at) VALUES ($1, 'Bench ' || now(), 'bench/p', now()) RETURNING id`, [owner])).rows[0].id;
const workflow = (await sql.query(`INSERT INTO workflows (project_id, display_name, tasks, first_task, retirement, updated_at)
  VALUES ($1, 'Bench', '{"T0":{"type":"single","question":"?","answers":[{"label":"a"},{"label":"b"}]}}', 'T0', '{"criteria":"classification_count","options":{"count":5}}', now()) RETURNING id`, [project])).rows[0].id;
const per = Math.ceil(SUBJECTS / SETS);
for (let s = 0; s < SETS; s++) {
  const set = (await sql.query(`INSERT INTO subject_sets (project_id, display_name, set_member_subjects_count, updated_at) VALUES ($1, 'Set ' || $2, $3, now()) RETURNING id`, [project, s, per])).rows[0].id;
  await sql.query(`INSERT INTO workflow_subject_sets (workflow_id, subject_set_id) VALUES ($1, $2)`, [workflow, set]);
  await sql.query(
    `WITH s AS (INSERT INTO subjects (project_id, metadata, locations, updated_at)
                SELECT $1, jsonb_build_object('n', g::text), jsonb_build_array(jsonb_build_object('image/png', 'https://example.test/' || g || '.png')), now()
                FROM generate_series(1, $2) g RETURNING id)
     INSERT INTO set_member_subjects (subject_set_id, subject_id) SELECT $3, id FROM s`,
    [project, per, set],
  );
}
await sql.query(`UPDATE projects SET subjects_count = $2 WHERE id = $1`, [project, per * SETS]);
// Volunteers with long histories: each has seen SEEN subjects spread over every set.
const heavy = (await sql.query(`SELECT id FROM users WHERE login LIKE 'bench%' ORDER BY id LIMIT $1`, [HEAVY_USERS])).rows.map((r) => r.id as number);
await sql.query(
  `INSERT INTO user_seen_subjects (user_id, workflow_id, subject_id)
   SELECT u, $2, sms.subject_id FROM unnest($1::int[]) u CROSS JOIN LATERAL (SELECT subject_id FROM set_member_subjects ORDER BY random() LIMIT $3) sms ON CONFLICT DO NOTHING`,
  [heavy, workflow, SEEN],
);
// A tenth of the subjects retired.
await sql.query(`INSERT INTO subject_workflow_statuses (subject_id, workflow_id, classifications_count, retired_at, retirement_reason, updated_at)
  SELECT id, $1, 5, now(), 'classification_count', now() FROM subjects WHERE project_id = $2 AND id % 10 = 0`, [workflow, project]);
// A freshly loaded database is vacuumed before it is measured (autovacuum would be busy with it for minutes;
// the visibility map also lets the queue's anti-joins use index-only scans, as on a settled database).
await sql.query(`VACUUM (ANALYZE)`);
const generationSeconds = Math.round(performance.now() - tGen) / 1000;

const app = (await sql.query(`SELECT id, client_id FROM oauth_applications WHERE first_party LIMIT 1`)).rows[0];
const users = (await sql.query(`SELECT id, login, display_name AS "displayName", admin FROM users WHERE login LIKE 'bench%' ORDER BY id`)).rows;
const tokens = await Promise.all(users.map(async (u) => (await issueToken(app.id, app.client_id, u, ["public", "classification", "project"])).access_token));
const heavyTokens = tokens.slice(0, HEAVY_USERS);
const headers = (token: string) => ({ accept: "application/vnd.api+json; version=1", "content-type": "application/json", authorization: `Bearer ${token}` });
const params = { params: Promise.resolve({}) };

// Warm up connections and caches.
for (let i = 0; i < 20; i++) await queued(new Request(`http://bench/api/subjects/queued?workflow_id=${workflow}`, { headers: headers(heavyTokens[0]) }), params);

const queue = await load(QUEUE_REQUESTS, 1, async (i) => {
  const res = await queued(new Request(`http://bench/api/subjects/queued?workflow_id=${workflow}`, { headers: headers(heavyTokens[i % heavyTokens.length]) }), params);
  if (res.status !== 200) throw new Error(`queue ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
});
const queueConcurrent = await load(QUEUE_REQUESTS, CONCURRENCY, async (i) => {
  const res = await queued(new Request(`http://bench/api/subjects/queued?workflow_id=${workflow}`, { headers: headers(heavyTokens[i % heavyTokens.length]) }), params);
  if (res.status !== 200) throw new Error(`queue ${res.status}`);
  await res.arrayBuffer();
});

const firstSubject = (await sql.query(`SELECT min(id)::int AS id FROM subjects WHERE project_id = $1`, [project])).rows[0].id;
const creates = await load(CREATES, CONCURRENCY, async (i) => {
  const body = {
    classifications: {
      annotations: [{ task: "T0", value: i % 2 }],
      metadata: { started_at: new Date().toISOString(), finished_at: new Date().toISOString(), user_agent: "bench", user_language: "en", workflow_version: "1.1" },
      links: { project: String(project), workflow: String(workflow), subjects: [String(firstSubject + ((i * 7919) % (per * SETS)))] },
    },
  };
  const res = await createClassification(new Request("http://bench/api/classifications", { method: "POST", headers: headers(tokens[i % tokens.length]), body: JSON.stringify(body) }), params);
  if (res.status !== 201) throw new Error(`create ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
});

console.log(
  JSON.stringify(
    {
      benchmark: "classify-and-queue",
      subjects: per * SETS,
      subject_sets: SETS,
      seen_per_heavy_user: SEEN,
      retired_fraction: 0.1,
      data_generation_s: generationSeconds,
      queue_sequential: summarize(queue.latencies, queue.wallMs),
      queue_concurrent: { concurrency: CONCURRENCY, ...summarize(queueConcurrent.latencies, queueConcurrent.wallMs) },
      classification_create: { concurrency: CONCURRENCY, ...summarize(creates.latencies, creates.wallMs) },
    },
    null,
    2,
  ),
);
await closeDb();
await database.stop();
process.exit(0);
