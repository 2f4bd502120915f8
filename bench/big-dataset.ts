// The dataset at the established platform's sizes (bench:dataset, bench:lists): 10,000,000 classifications,
// 1,000,000 subjects, 100,000 users, 10,000 projects (each with a workflow and a subject set; the big
// project with 5 sets), subject_workflow_statuses for every subject classified, and the decision engine's
// extracts (1,000,000) and subject reductions (two reducers over the big workflow's subjects) of the big
// workflow. BENCH_DATASET_SCALE (default 1) multiplies every size (0.01 to develop).
//
// Made with set-based SQL only (INSERT ... SELECT over generate_series, GROUP BY for the counters): no row
// is sent from here. The classifications table's secondary indexes are dropped during its load and built
// again after it (a sorted build is far cheaper than 10 M random index inserts), and fsync is off while
// loading (a CHECKPOINT with fsync back on makes it durable before anything is measured).
//
// The counters the lists read are filled as the running server would have left them, from the rows made:
// project and workflow classification counters and classifiers, the daily rollups (all, project,
// workflow; per volunteer and project), project preferences' activity counts, subjects per project,
// members per set, retired counts. The count outbox is left empty (everything is folded).
//
// Who is who: 60 % of the classifications are in the big project (the first of the dataset), 40 % by ten
// heavy volunteers (400,000 each at full size), the rest by volunteers in sessions of 36 classifications,
// each in the big project or in one of two other projects of theirs. Classification times rise with their
// ids over three years, as on a live platform (within a million: two chunks of a million load at once).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { startEmbeddedPostgres } from "../lib/db/embedded";
import { applyMigrations } from "../lib/db/migrations";
import { migrateJobQueue } from "../lib/jobs/queue";
import { saveBenchEngineConfig } from "./lib";

export const SCALE = Number(process.env.BENCH_DATASET_SCALE ?? 1);

export interface BigDatasetInfo {
  scale: number;
  sizes: { classifications: number; subjects: number; users: number; projects: number; extracts: number; reductions: number };
  /** The big project: its id, workflow, sets, owner (an editor) and one heavy volunteer. */
  bigProject: number;
  bigWorkflow: number;
  bigSets: number[];
  bigProjectSubjects: number;
  owner: number;
  heavyVolunteer: number;
  heavyVolunteerClassifications: number;
  generationSeconds: number;
  steps: Record<string, number>;
}

const HEAVY = 10;
// Every classification's metadata, as the classifier sends it (one constant: building a jsonb per row
// tripled the load's time). Its times are 20 seconds apart, so each counts 20 seconds in the rollups.
const METADATA = JSON.stringify({
  source: "api",
  session: "c0ffee0123456789c0ffee0123456789",
  viewport: { width: 1280, height: 800 },
  started_at: "2026-01-01T12:00:00.000Z",
  user_agent: "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  finished_at: "2026-01-01T12:00:20.000Z",
  user_language: "en",
  utc_offset: "0",
  workflow_version: "1.1",
});
/** A file in the data dir written once the dataset is complete. */
const COMPLETE = "dataset-complete";
const SESSION = 60; // classification slots per session (36 of them non-heavy)

function sizes(scale: number) {
  const n = (x: number, min: number) => Math.max(min, Math.round(x * scale));
  const projects = n(10_000, 20);
  const users = n(100_000, 100);
  const subjects = n(1_000_000, 2_000);
  const classifications = n(10_000_000, 20_000);
  const bigSubjects = Math.floor(subjects / 2 / 5) * 5; // 5 sets of equal size
  const perOther = Math.floor((subjects - bigSubjects) / (projects - 1));
  return {
    projects,
    users,
    subjects: bigSubjects + perOther * (projects - 1),
    classifications,
    bigSubjects,
    perOther,
    extracts: n(1_000_000, 10_000),
  };
}

export function defaultDataDir(scale = SCALE): string {
  return process.env.BENCH_DATA_DIR ?? path.join(os.tmpdir(), `quorum-bench-dataset-${scale}`);
}

/**
 * The database holding the dataset: DATABASE_URL when set, else an embedded PostgreSQL on dataDir (kept
 * between runs). Migrations are applied (a new index reaches an existing dataset). Generates the dataset
 * when the database has none; answers what it holds and whether it was reused.
 */
export async function openBigDataset(opts: { dataDir?: string; scale?: number; log?: (s: string) => void } = {}) {
  const scale = opts.scale ?? SCALE;
  const log = opts.log ?? ((s: string) => console.error(`[dataset] ${s}`));
  let markComplete = () => {};
  let url = process.env.DATABASE_URL;
  let stop = async () => {};
  if (!url) {
    const dataDir = opts.dataDir ?? defaultDataDir(scale);
    // A dataset whose generation was interrupted (no bench_dataset row) is made again from scratch.
    if (fs.existsSync(path.join(dataDir, "postgres", "PG_VERSION")) && !fs.existsSync(path.join(dataDir, COMPLETE))) {
      log(`${dataDir} holds an unfinished dataset: removed`);
      removeDataDir(dataDir);
    }
    log(`embedded PostgreSQL on ${dataDir}`);
    const db = await startEmbeddedPostgres({ dataDir, persistent: true });
    url = db.url;
    process.env.DATABASE_URL = url;
    stop = db.stop;
    markComplete = () => fs.writeFileSync(path.join(dataDir, COMPLETE), `${new Date().toISOString()}\n`);
  }
  await applyMigrations(url);
  await migrateJobQueue(url);
  const { pool, closeDb } = await import("../lib/db");
  const sql = pool();
  const existing = await sql
    .query(`SELECT info FROM bench_dataset WHERE scale = $1`, [scale])
    .catch(() => ({ rows: [] as { info: BigDatasetInfo }[] }));
  let info: BigDatasetInfo;
  let reused = false;
  if (existing.rows[0]) {
    info = existing.rows[0].info;
    reused = true;
    log(`reusing the dataset made in ${info.generationSeconds} s`);
  } else {
    const { rows } = await sql.query(`SELECT count(*)::int AS n FROM classifications`);
    if (rows[0].n > 0)
      throw new Error("the database holds classifications but no finished dataset (an interrupted generation?): remove its data dir");
    info = await generate(sql, scale, log);
    markComplete();
  }
  return {
    url,
    sql,
    info,
    reused,
    async stop() {
      await closeDb();
      await stop();
    },
  };
}

async function generate(sql: pg.Pool, scale: number, log: (s: string) => void): Promise<BigDatasetInfo> {
  const z = sizes(scale);
  // One connection throughout: session settings (work_mem, maintenance_work_mem) and a temp table.
  const client = await sql.connect();
  const q = (text: string, values: unknown[] = []) => client.query(text, values);
  try {
    await q(`SET work_mem = '256MB'`);
    await q(`SET maintenance_work_mem = '1GB'`);
    return await generateOn(q, sql, z, scale, log);
  } finally {
    await q(`RESET ALL`).catch(() => {});
    client.release();
  }
}

async function generateOn(
  q: (text: string, values?: unknown[]) => Promise<pg.QueryResult>,
  sql: pg.Pool,
  z: ReturnType<typeof sizes>,
  scale: number,
  log: (s: string) => void,
): Promise<BigDatasetInfo> {
  const steps: Record<string, number> = {};
  const t0 = performance.now();
  const step = async (name: string, fn: () => Promise<unknown>) => {
    const t = performance.now();
    log(`${name}...`);
    await fn();
    steps[name] = Math.round(performance.now() - t) / 1000;
    log(`${name}: ${steps[name]} s`);
  };
  // Contiguous ids: every table is filled by one INSERT ... SELECT in a fresh database, so its serial ids
  // are handed out in generate_series order; checked, since every formula below relies on it.
  const firstId = async (table: string, expected: number, where = "true") => {
    const { rows } = await q(`SELECT min(id)::int AS lo, max(id)::int AS hi, count(*)::int AS n FROM ${table} WHERE ${where}`);
    if (rows[0].n !== expected || rows[0].hi - rows[0].lo + 1 !== expected)
      throw new Error(`${table}: ids are not contiguous (${JSON.stringify(rows[0])})`);
    return rows[0].lo as number;
  };

  // Loading: no fsync, full-page writes or checkpoints until the end (reset before the CHECKPOINT below).
  for (const s of ["fsync = off", "full_page_writes = off", "max_wal_size = '8GB'", "checkpoint_timeout = '1h'"])
    await q(`ALTER SYSTEM SET ${s}`);
  await q(`SELECT pg_reload_conf()`);

  let u0 = 0,
    p0 = 0,
    w0 = 0,
    set0 = 0,
    sub0 = 0;
  const { users: U, projects: P, bigSubjects: SB, perOther: PER, classifications: C } = z;
  const bigSets = 5;
  const setSize = SB / bigSets;
  const regular = U - 1 - HEAVY; // volunteers who classify in sessions: ids u0 + 1 + HEAVY .. u0 + U - 1

  await step("users", async () => {
    await q(
      `INSERT INTO users (login, email, encrypted_password, display_name, private_profile, created_at, updated_at)
       SELECT 'vol' || g, 'vol' || g || '@example.test', 'x', 'Volunteer ' || g, g % 3 = 0, now() - interval '4 years' + g * interval '1 minute', now()
       FROM generate_series(1, ${U}) g`,
    );
    u0 = await firstId("users", U, "login LIKE 'vol%'");
  });
  await step("projects, workflows, sets", async () => {
    // Project k (0-based) is owned by volunteer k % U; the big project (k = 0) by the first.
    await q(
      `INSERT INTO projects (owner_id, display_name, slug, description, live, launch_approved, beta, tags, classifications_count, created_at, updated_at)
       SELECT ${u0} + k % ${U}, 'Project ' || k, 'vol' || (1 + k % ${U}) || '/project-' || k, 'A project of the benchmark dataset.',
              k % 4 <> 3, k % 10 = 0, k % 7 = 0,
              ARRAY['tag' || (k % 20)], 0, now() - interval '4 years' + k * interval '2 hours', now()
       FROM generate_series(0, ${P} - 1) k`,
    );
    p0 = await firstId("projects", P);
    await q(
      `INSERT INTO project_roles (project_id, user_id, roles, updated_at) SELECT id, owner_id, ARRAY['owner'], now() FROM projects ORDER BY id`,
    );
    await q(
      `INSERT INTO workflows (project_id, display_name, tasks, first_task, retirement, updated_at)
       SELECT id, 'Workflow of project ' || (id - ${p0}),
              '{"T0":{"type":"single","question":"Is there a galaxy?","answers":[{"label":"Yes"},{"label":"No"}]}}', 'T0',
              '{"criteria":"classification_count","options":{"count":15}}', now()
       FROM projects ORDER BY id`,
    );
    w0 = await firstId("workflows", P);
    await q(
      `INSERT INTO workflow_versions (workflow_id, major_number, minor_number, tasks, first_task, strings, updated_at)
        SELECT id, 1, 1, tasks, first_task, strings, now() FROM workflows ORDER BY id`,
    );
    // Sets: the big project's 5 first, then one per other project.
    await q(
      `INSERT INTO subject_sets (project_id, display_name, updated_at)
       SELECT CASE WHEN k < ${bigSets} THEN ${p0} ELSE ${p0} + k - ${bigSets} + 1 END, 'Set ' || k, now() FROM generate_series(0, ${bigSets + P - 2}) k`,
    );
    set0 = await firstId("subject_sets", bigSets + P - 1);
    await q(
      `INSERT INTO workflow_subject_sets (workflow_id, subject_set_id) SELECT w.id, s.id FROM subject_sets s JOIN workflows w
        ON w.project_id = s.project_id ORDER BY s.id`,
    );
  });
  await step("subjects and set members", async () => {
    // Subject i: the big project's (i < SB, in 5 contiguous blocks, one per set), else other project
    // 1 + (i - SB) % (P - 1), so subject j of other project k is sub0 + SB + (k - 1) + j * (P - 1).
    await q(
      `INSERT INTO subjects (project_id, metadata, locations, created_at, updated_at)
       SELECT CASE WHEN i < ${SB} THEN ${p0} ELSE ${p0} + 1 + (i - ${SB}) % ${P - 1} END,
              ('{"#name":"subject-' || i || '","ra":' || (i % 36000) / 100.0 || ',"dec":' || ((i * 7) % 18000) / 100.0 - 90 || '}')::jsonb,
              ('[{"image/jpeg":"https://panoptes-uploads.example.test/subject_location/' || md5(i::text) || '.jpeg"}]')::jsonb,
              now() - interval '3 years', now()
       FROM generate_series(0, ${z.subjects - 1}) i`,
    );
    sub0 = await firstId("subjects", z.subjects);
    await q(
      `INSERT INTO set_member_subjects (subject_set_id, subject_id, updated_at)
       SELECT CASE WHEN id - ${sub0} < ${SB} THEN ${set0} + (id - ${sub0}) / ${setSize}
         ELSE ${set0 + bigSets} + (project_id - ${p0 + 1}) END, id, now() FROM subjects ORDER BY id`,
    );
  });

  // The classifications table's secondary indexes, built again after the load.
  const { rows: indexes } = await q(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i
     WHERE i.indrelid = 'classifications'::regclass AND NOT i.indisprimary ORDER BY 1`,
  );
  await step("classifications", async () => {
    for (const ix of indexes) await q(`DROP INDEX ${ix.name}`);
    // In chunks of a million, two at a time (one per core).
    const CHUNK = 1_000_000;
    const chunks = Array.from({ length: Math.ceil(C / CHUNK) }, (_, i) => i * CHUNK);
    let done = 0;
    const insert = async (from: number) => {
      await sql.query(
        `INSERT INTO classifications (project_id, workflow_id, user_id, subject_ids, annotations, metadata, completed, workflow_version, created_at, updated_at)
         SELECT project, ${w0} + (project - ${p0}), user_id,
                ARRAY[CASE WHEN project = ${p0} THEN ${sub0} + (g * 7919) % ${SB}
                           ELSE ${sub0} + ${SB} + (project - ${p0} - 1) + ((g * 7919) % ${PER}) * (${P} - 1) END],
                CASE WHEN g % 2 = 0 THEN '[{"task":"T0","value":0}]'::jsonb ELSE '[{"task":"T0","value":1}]'::jsonb END,
                '${METADATA}'::jsonb,
                true, '1.1', t, t
         FROM (
           SELECT g, t, user_id,
                  CASE WHEN heavy OR (g / ${SESSION}) % 3 = 0 THEN ${p0}
                       ELSE ${p0} + 1 + ((user_id - ${u0}) * 31 + (g / ${SESSION}) % 3) % (${P} - 1) END AS project
           FROM (
             SELECT g, g % 10 < 4 AS heavy,
                    CASE WHEN g % 10 < 4 THEN ${u0} + 1 + (g / 10) % ${HEAVY}
                         ELSE ${u0} + 1 + ${HEAVY} + ((g / ${SESSION}) * 7919) % ${regular} END AS user_id,
                    now() - interval '3 years' + (g::float8 / ${C}) * interval '3 years' AS t
             FROM generate_series(${from}::bigint, ${Math.min(C, from + CHUNK) - 1}::bigint) g) a) b`,
      );
      done += Math.min(C, from + CHUNK) - from;
      log(`classifications: ${done} of ${C}`);
    };
    await Promise.all(
      [0, 1].map(async () => {
        for (let from = chunks.shift(); from !== undefined; from = chunks.shift()) await insert(from);
      }),
    );
  });
  await step("classifications' indexes", async () => {
    for (const ix of indexes) await q(ix.def);
  });
  await step("subject_workflow_statuses", async () => {
    await q(
      `INSERT INTO subject_workflow_statuses (subject_id, workflow_id, classifications_count, retired_at, retirement_reason, updated_at)
       SELECT s, workflow_id, n, CASE WHEN n >= 15 THEN now() END, CASE WHEN n >= 15 THEN 'classification_count' END, now()
       FROM (SELECT subject_ids[1] AS s, workflow_id, count(*)::int AS n FROM classifications GROUP BY 1, 2 ORDER BY 1, 2) c`,
    );
  });
  await step("counters and rollups", async () => {
    // What the folder would have left (lib/domain/fold-classification-counts.ts), all at once.
    await q(
      `UPDATE workflows w SET classifications_count = c.n, retired_set_member_subjects_count = coalesce(r.n, 0)
       FROM (SELECT workflow_id, count(*)::int AS n FROM classifications GROUP BY 1) c
       LEFT JOIN (SELECT workflow_id, count(*)::int AS n FROM subject_workflow_statuses WHERE retired_at IS NOT NULL GROUP BY 1) r
         ON r.workflow_id = c.workflow_id
       WHERE w.id = c.workflow_id`,
    );
    await q(
      `UPDATE projects p SET classifications_count = c.n, classifiers_count = c.v,
              retired_subjects_count = (SELECT retired_set_member_subjects_count FROM workflows w WHERE w.project_id = p.id)
       FROM (SELECT project_id, count(*)::int AS n, count(DISTINCT user_id)::int AS v FROM classifications GROUP BY 1) c WHERE p.id = c.project_id`,
    );
    await q(
      `UPDATE projects p SET subjects_count = s.n FROM (SELECT project_id, count(*)::int AS n FROM subjects GROUP BY 1) s WHERE p.id = s.project_id`,
    );
    await q(
      `UPDATE subject_sets s SET set_member_subjects_count = m.n FROM (SELECT subject_set_id, count(*)::int AS n
        FROM set_member_subjects GROUP BY 1) m WHERE s.id = m.subject_set_id`,
    );
    await q(
      `CREATE TEMP TABLE bench_days AS
        SELECT project_id, workflow_id, user_id, (created_at AT TIME ZONE 'UTC')::date AS day, count(*)::int AS n FROM classifications
        GROUP BY 1, 2, 3, 4`,
    );
    await q(
      `INSERT INTO classification_daily_counts (scope, scope_id, day, count)
       SELECT 'all', 0, day, sum(n) FROM bench_days GROUP BY day
       UNION ALL SELECT 'project', project_id, day, sum(n) FROM bench_days GROUP BY 2, 3
       UNION ALL SELECT 'workflow', workflow_id, day, sum(n) FROM bench_days GROUP BY 2, 3`,
    );
    // Each classification took 20 seconds (its metadata's finished_at - started_at).
    await q(
      `INSERT INTO user_project_daily_counts (user_id, project_id, day, count, seconds)
        SELECT user_id, project_id, day, sum(n), 20 * sum(n) FROM bench_days GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    );
    await q(
      `INSERT INTO project_preferences (user_id, project_id, activity_count, email_communication, updated_at)
       SELECT user_id, project_id, sum(n), false, now() FROM bench_days GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    await q(`DROP TABLE bench_days`);
  });
  const bigWorkflow = w0;
  await step("engine: extracts and reductions", async () => {
    await saveBenchEngineConfig(
      {
        id: bigWorkflow,
        extractors_config: { q: { type: "question", task_key: "T0" } },
        reducers_config: { c: { type: "consensus" }, n: { type: "count" } },
        rules_config: [
          { if: ["gte", ["lookup", "c.num_votes", 0], ["const", 15]], then: [{ action: "retire_subject", reason: "consensus" }] },
        ],
      },
      p0,
    );
    // The big workflow's first classifications, extracted by its question extractor.
    await q(
      `INSERT INTO extracts (workflow_id, subject_id, user_id, classification_id, classification_at, extractor_key, data, created_at, updated_at)
       SELECT workflow_id, subject_ids[1], user_id, id, created_at, 'q', jsonb_build_object((annotations -> 0 ->> 'value'), 1), created_at, created_at
       FROM classifications WHERE workflow_id = $1 ORDER BY id LIMIT $2`,
      [bigWorkflow, z.extracts],
    );
    // Both reducers' reductions of every subject of the big workflow that has a status.
    await q(
      `INSERT INTO subject_reductions (workflow_id, subject_id, reducer_key, data, created_at, updated_at)
       SELECT ${bigWorkflow}, subject_id, k, CASE WHEN k = 'c'
         THEN jsonb_build_object('most_likely', (subject_id % 2)::text, 'num_votes', classifications_count, 'agreement', 0.6)
                                      ELSE jsonb_build_object('classifications', classifications_count, 'extracts', classifications_count) END,
              now() - (subject_id % 1000) * interval '1 hour', now() - (subject_id % 1000) * interval '1 minute'
       FROM subject_workflow_statuses CROSS JOIN (VALUES ('c'), ('n')) r(k) WHERE workflow_id = ${bigWorkflow} ORDER BY subject_id, k`,
    );
  });
  await step("check counters against the rows", async () => {
    // Each is a list of the scopes whose counter differs from its rows: all must be empty.
    const checks: Record<string, string> = {
      projects: `SELECT id FROM projects p LEFT JOIN (SELECT project_id, count(*)::int AS n, count(DISTINCT user_id)::int AS v
        FROM classifications GROUP BY 1) c ON c.project_id = p.id
                 WHERE p.classifications_count <> coalesce(c.n, 0) OR p.classifiers_count <> coalesce(c.v, 0)
                    OR p.subjects_count <> (SELECT count(*) FROM subjects s WHERE s.project_id = p.id)`,
      workflows: `SELECT id FROM workflows w LEFT JOIN (SELECT workflow_id, count(*)::int AS n FROM classifications GROUP BY 1) c
        ON c.workflow_id = w.id WHERE w.classifications_count <> coalesce(c.n, 0)`,
      volunteers: `SELECT user_id FROM (SELECT user_id, project_id, count(*)::int AS n FROM classifications GROUP BY 1, 2) c
                   FULL JOIN (SELECT user_id, project_id, sum(count)::int AS n FROM user_project_daily_counts GROUP BY 1, 2) r
                     USING (user_id, project_id) WHERE c.n IS DISTINCT FROM r.n`,
      sets: `SELECT id FROM subject_sets s WHERE set_member_subjects_count <> (SELECT count(*) FROM set_member_subjects m WHERE m.subject_set_id = s.id)`,
      daily_all: `SELECT 1 WHERE (SELECT sum(count) FROM classification_daily_counts WHERE scope = 'all') <> (SELECT count(*) FROM classifications)`,
      outbox: `SELECT id FROM classification_count_outbox`,
    };
    for (const [name, text] of Object.entries(checks)) {
      const { rowCount } = await q(`${text} LIMIT 5`);
      if (rowCount) throw new Error(`counters differ from the rows: ${name}`);
    }
  });
  const extracts = (await q(`SELECT count(*)::int AS n FROM extracts`)).rows[0].n;
  const reductions = (await q(`SELECT count(*)::int AS n FROM subject_reductions`)).rows[0].n;
  const heavy = u0 + 1;
  const heavyN = (await q(`SELECT coalesce(sum(count), 0)::int AS n FROM user_project_daily_counts WHERE user_id = $1`, [heavy])).rows[0].n;

  await step("durable, vacuum, analyze", async () => {
    for (const s of ["fsync", "full_page_writes", "max_wal_size", "checkpoint_timeout"]) await q(`ALTER SYSTEM RESET ${s}`);
    await q(`SELECT pg_reload_conf()`);
    await q(`CHECKPOINT`);
    // fsync was off while loading, so the checkpoint above did not sync what was written then.
    spawnSync("sync");
    // A freshly loaded database is vacuumed before it is measured (hint bits, the visibility map for
    // index-only scans, statistics), as a settled one would be.
    await q(`VACUUM (ANALYZE)`);
    await q(`CHECKPOINT`);
  });
  const info: BigDatasetInfo = {
    scale,
    sizes: { classifications: C, subjects: z.subjects, users: U, projects: P, extracts, reductions },
    bigProject: p0,
    bigWorkflow,
    bigSets: Array.from({ length: bigSets }, (_, i) => set0 + i),
    bigProjectSubjects: SB,
    owner: u0,
    heavyVolunteer: heavy,
    heavyVolunteerClassifications: heavyN,
    generationSeconds: Math.round(performance.now() - t0) / 1000,
    steps,
  };
  await q(
    `CREATE TABLE IF NOT EXISTS bench_dataset (scale float8 PRIMARY KEY, info jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
  );
  await q(`INSERT INTO bench_dataset (scale, info) VALUES ($1, $2)`, [scale, info]);
  return info;
}

/** Removes a dataset's data dir (an embedded one). */
export function removeDataDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}
