// The classifying dataset both classification benchmarks measure: 400 volunteers, one project with a
// single-question workflow over SUBJECTS subjects in SETS sets, HEAVY_USERS volunteers who have each seen
// SEEN subjects, a tenth of the subjects retired; vacuumed and analysed as a settled database would be.
import type pg from "pg";
import { issueToken } from "../lib/auth/tokens";

export interface ClassifyDataset {
  project: number;
  workflow: number;
  subjects: number;
  /** Every subject's id, in order. */
  subjectIds: number[];
  firstSubject: number;
  generationSeconds: number;
  /** Bearer tokens of every volunteer; the first `heavy` have long seen histories. */
  tokens: string[];
  heavyTokens: string[];
}

export async function loadClassifyDataset(
  sql: pg.Pool,
  opts: { subjects: number; seen: number; sets?: number; heavyUsers?: number },
): Promise<ClassifyDataset> {
  const SETS = opts.sets ?? 10;
  const SEEN = opts.seen;
  const HEAVY_USERS = opts.heavyUsers ?? 20;
  const tGen = performance.now();
  await sql.query(`INSERT INTO users (login, email, encrypted_password, display_name, updated_at)
    SELECT 'bench' || g, 'bench' || g || '@example.test', 'x', 'Bench ' || g, now() FROM generate_series(1, 400) g ON CONFLICT DO NOTHING`);
  const owner = (await sql.query(`SELECT id FROM users WHERE login = 'bench1'`)).rows[0].id;
  const project = (
    await sql.query(
      `INSERT INTO projects (owner_id, display_name, slug, updated_at) VALUES ($1, 'Bench ' || now(), 'bench/p', now()) RETURNING id`,
      [owner],
    )
  ).rows[0].id;
  const workflow = (
    await sql.query(
      `INSERT INTO workflows (project_id, display_name, tasks, first_task, retirement, updated_at)
    VALUES ($1, 'Bench', '{"T0":{"type":"single","question":"?","answers":[{"label":"a"},{"label":"b"}]}}', 'T0',
            '{"criteria":"classification_count","options":{"count":5}}', now()) RETURNING id`,
      [project],
    )
  ).rows[0].id;
  const per = Math.ceil(opts.subjects / SETS);
  for (let s = 0; s < SETS; s++) {
    const set = (
      await sql.query(
        `INSERT INTO subject_sets (project_id, display_name, set_member_subjects_count, updated_at) VALUES ($1, 'Set ' || $2, $3, now()) RETURNING id`,
        [project, s, per],
      )
    ).rows[0].id;
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
  const heavy = (await sql.query(`SELECT id FROM users WHERE login LIKE 'bench%' ORDER BY id LIMIT $1`, [HEAVY_USERS])).rows.map(
    (r) => r.id as number,
  );
  await sql.query(
    `INSERT INTO user_seen_subjects (user_id, workflow_id, subject_id)
     SELECT u, $2, sms.subject_id FROM unnest($1::int[]) u CROSS JOIN LATERAL (SELECT subject_id FROM set_member_subjects
       ORDER BY random() LIMIT $3) sms ON CONFLICT DO NOTHING`,
    [heavy, workflow, SEEN],
  );
  // A tenth of the subjects retired.
  await sql.query(
    `INSERT INTO subject_workflow_statuses (subject_id, workflow_id, classifications_count, retired_at, retirement_reason, updated_at)
    SELECT id, $1, 5, now(), 'classification_count', now() FROM subjects WHERE project_id = $2 AND id % 10 = 0`,
    [workflow, project],
  );
  // A freshly loaded database is vacuumed before it is measured (autovacuum would be busy with it for minutes;
  // the visibility map also lets the queue's anti-joins use index-only scans, as on a settled database).
  await sql.query(`VACUUM (ANALYZE)`);
  const generationSeconds = Math.round(performance.now() - tGen) / 1000;

  const app = (await sql.query(`SELECT id, client_id FROM oauth_applications WHERE first_party LIMIT 1`)).rows[0];
  const users = (await sql.query(`SELECT id, login, display_name AS "displayName", admin FROM users WHERE login LIKE 'bench%' ORDER BY id`))
    .rows;
  const tokens = await Promise.all(
    users.map(async (u) => (await issueToken(app.id, app.client_id, u, ["public", "classification", "project"])).access_token),
  );
  const heavyTokens = tokens.slice(0, HEAVY_USERS);
  // The subjects' ids, in order: not one run (the sets made between them take ids from the same sequence,
  // record_ids), so requests pick from the list.
  const subjectIds = (await sql.query(`SELECT id FROM subjects WHERE project_id = $1 ORDER BY id`, [project])).rows.map(
    (r) => r.id as number,
  );
  return {
    project,
    workflow,
    subjects: subjectIds.length,
    subjectIds,
    firstSubject: subjectIds[0],
    generationSeconds,
    tokens,
    heavyTokens,
  };
}

/** The i-th classification create body: one subject spread over the whole dataset, alternating answers. */
export function classificationBody(ds: ClassifyDataset, i: number) {
  const now = new Date().toISOString();
  return {
    classifications: {
      annotations: [{ task: "T0", value: i % 2 }],
      metadata: { started_at: now, finished_at: now, user_agent: "bench", user_language: "en", workflow_version: "1.1" },
      links: {
        project: String(ds.project),
        workflow: String(ds.workflow),
        subjects: [String(ds.subjectIds[(i * 7919) % ds.subjects])],
      },
    },
  };
}
