// npm run bench:dataset — the dataset at the established platform's sizes (bench/big-dataset.ts): 10 M
// classifications, 1 M subjects, 100 k users, 10 k projects, the engine's extracts and reductions of one
// workflow, with every counter the lists read filled from the rows made. On an embedded PostgreSQL in
// BENCH_DATA_DIR (default <tmp>/quorum-bench-dataset-<scale>), kept: a second run reuses it (bench:lists
// does too); DATABASE_URL instead uses that database. BENCH_DATASET_SCALE=0.01 makes a hundredth. Prints
// JSON: what it holds and how long generation took.
import "../scripts/require-node";
import { defaultDataDir, openBigDataset, SCALE } from "./big-dataset";

const dataDir = process.env.DATABASE_URL ? null : defaultDataDir();
const t0 = performance.now();
const ds = await openBigDataset();
const tables = (
  await ds.sql.query(
    `SELECT relname AS table, n_live_tup::bigint AS rows, pg_total_relation_size(relid) AS bytes FROM pg_stat_user_tables
     WHERE relname IN ('classifications', 'subjects', 'set_member_subjects', 'subject_workflow_statuses', 'users', 'projects', 'workflows', 'subject_sets',
                       'extracts', 'subject_reductions', 'user_project_daily_counts', 'classification_daily_counts', 'project_preferences')
     ORDER BY pg_total_relation_size(relid) DESC`,
  )
).rows.map((r) => ({ table: r.table, rows: Number(r.rows), mb: Math.round(Number(r.bytes) / 1048576) }));
const database = (await ds.sql.query(`SELECT pg_database_size(current_database()) AS b`)).rows[0].b;
console.log(
  JSON.stringify(
    {
      benchmark: "dataset",
      scale: SCALE,
      data_dir: dataDir,
      reused: ds.reused,
      generation_s: ds.info.generationSeconds,
      generation_steps_s: ds.info.steps,
      this_run_s: Math.round(performance.now() - t0) / 1000,
      sizes: ds.info.sizes,
      big_project: { id: ds.info.bigProject, workflow: ds.info.bigWorkflow, sets: ds.info.bigSets, subjects: ds.info.bigProjectSubjects },
      heavy_volunteer: { id: ds.info.heavyVolunteer, classifications: ds.info.heavyVolunteerClassifications },
      database_mb: Math.round(Number(database) / 1048576),
      tables,
    },
    null,
    2,
  ),
);
await ds.stop();
process.exit(0);
