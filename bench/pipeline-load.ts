// The decision engine under full load, over HTTP (bench:http's `pipeline`): volunteers create
// classifications through the production server while its worker(s) extract, reduce, evaluate and
// retire. A workflow with a question extractor, a consensus reducer (keep_first) and one rule retiring a
// subject at its 3rd distinct volunteer; each subject gets its three classifications from three
// volunteers a window of 64 creates apart. Measured from database timestamps: create → retirement (the
// created_at of the classification that brings the 3rd volunteer to the subject's retired_at), the
// extraction backlog (classifications not yet extracted) sampled every second, the drain time after the
// load stops, and, beside them in the same run, creates on a workflow the engine does not run. While the
// load runs, pg_stat_activity is sampled every 100 ms: what each process's connections wait on, and whose
// (application_name: quorum-web, quorum-worker).
import type pg from "pg";
import type { ClassifyDataset } from "./classify-dataset";
import { classificationBody } from "./classify-dataset";
import { percentile, saveBenchEngineConfig, summarize } from "./lib";
import { cpuPerRequest, cpuSnapshot } from "./process-cpu";
import { startWorkerProcess, stopProcess, type ProductionServer } from "./server";

const WINDOW = 64;
const r2 = (n: number) => Math.round(n * 100) / 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface PipelineOptions {
  sql: pg.Pool;
  dataset: ClassifyDataset;
  app: ProductionServer;
  seconds: number;
  concurrency: number;
  /** Measure the maximum load again with a second `npm run worker` process. */
  secondWorker: boolean;
}

export async function pipelineLoad(o: PipelineOptions) {
  const { sql, dataset, app, seconds, concurrency } = o;
  const { workflow, subjects, setSubjects } = await engineWorkflow(sql, dataset);
  let nextSubject = 0;
  const body = (subject: number, answer: number) => {
    const now = new Date().toISOString();
    return {
      classifications: {
        annotations: [{ task: "T0", value: answer }],
        metadata: { started_at: now, finished_at: now, user_agent: "bench", user_language: "en", workflow_version: "1.1" },
        links: { project: String(dataset.project), workflow: String(workflow), subjects: [String(subject)] },
      },
    };
  };
  /** The i-th create of a phase starting at subject `base`: subject base + block*W + (j mod W), its (j div W)-th volunteer. */
  const engineCreate = (base: number) => (i: number) => {
    const block = Math.floor(i / (3 * WINDOW));
    const j = i % (3 * WINDOW);
    const s = base + block * WINDOW + (j % WINDOW);
    if (s >= setSubjects) throw new Error("the pipeline benchmark ran out of subjects (raise BENCH_PIPELINE_SUBJECTS)");
    return app.request("POST", "/api/classifications", dataset.tokens[i % dataset.tokens.length], body(subjects[s], 0));
  };
  const offCreate = (offset: number) => (i: number) =>
    app.request("POST", "/api/classifications", dataset.tokens[i % dataset.tokens.length], classificationBody(dataset, offset + i));

  const out: Record<string, unknown> = {
    workflow_rule: "question extractor → consensus (keep_first) → retire_subject at num_votes ≥ 3",
    seconds_per_load: seconds,
    concurrency,
  };
  const offMax = await drive(app, seconds, concurrency, null, offCreate(5_000_000));
  out.engine_off_max = offMax.creates;

  const phase = async (name: string, rate: number | null, extraWorkers = 0) => {
    console.error(`[bench] pipeline: ${name}`);
    const extra = Array.from({ length: extraWorkers }, () => startWorkerProcess({ ...process.env, NODE_ENV: "production", WORKER: "off" }));
    if (extra.length) await sleep(4000); // its pools started
    try {
      const base = nextSubject;
      const from = await maxId(sql);
      const sampler = new Sampler(sql, workflow, from);
      const waits = new WaitSampler(sql);
      sampler.start();
      waits.start();
      const run = await drive(
        app,
        seconds,
        concurrency,
        rate,
        engineCreate(base),
        extra.map((w) => w.pid!),
      );
      const loadEnd = Date.now();
      await waits.stop();
      nextSubject = base + Math.ceil(run.creates.count / (3 * WINDOW) + 1) * WINDOW;
      // Drained: nothing unextracted, nothing in the inbox or the engine's jobs.
      const deadline = Date.now() + 120_000;
      while ((await pending(sql, workflow, from)) > 0 && Date.now() < deadline) await sleep(50);
      const drainMs = Date.now() - loadEnd;
      await sampler.stop();
      return {
        ...run,
        drain_ms: drainMs,
        ...(await outcome(sql, workflow, from)),
        backlog_per_second: sampler.samples,
        waits: waits.summary(),
      };
    } finally {
      await Promise.all(extra.map(stopProcess));
    }
  };
  const max = await phase("engine on, maximum load", null);
  out.engine_on_max = max;
  out.engine_on_vs_off_creates = r2(max.creates.throughput_per_s / offMax.creates.throughput_per_s);
  out.engine_on_half = await phase("engine on, half the maximum rate", max.creates.throughput_per_s / 2);
  if (o.secondWorker) {
    const two = await phase("engine on, maximum load, a second worker process", null, 1);
    out.engine_on_max_two_workers = two;
  }
  return out;
}

/** A workflow of the dataset's project run by the engine, with a set of its own (subjects in id order). */
async function engineWorkflow(sql: pg.Pool, dataset: ClassifyDataset) {
  const n = Number(process.env.BENCH_PIPELINE_SUBJECTS ?? 60_000);
  const { project } = dataset;
  const workflow = (
    await sql.query(
      `INSERT INTO workflows (project_id, display_name, tasks, first_task, retirement, updated_at)
       VALUES ($1, 'Engine bench', '{"T0":{"type":"single","question":"?","answers":[{"label":"a"},{"label":"b"}]}}', 'T0',
               '{"criteria":"never_retire"}', now()) RETURNING id`,
      [project],
    )
  ).rows[0].id as number;
  const set = (
    await sql.query(
      `INSERT INTO subject_sets (project_id, display_name, set_member_subjects_count, updated_at) VALUES ($1, 'Engine set', $2, now()) RETURNING id`,
      [project, n],
    )
  ).rows[0].id;
  await sql.query(`INSERT INTO workflow_subject_sets (workflow_id, subject_set_id) VALUES ($1, $2)`, [workflow, set]);
  const subjects = (
    await sql.query(
      `WITH s AS (INSERT INTO subjects (project_id, metadata, locations, updated_at)
        SELECT $1, jsonb_build_object('n', g::text), '[]', now() FROM generate_series(1, $2) g RETURNING id)
       INSERT INTO set_member_subjects (subject_set_id, subject_id) SELECT $3, id FROM s RETURNING subject_id`,
      [project, n, set],
    )
  ).rows
    .map((r) => r.subject_id as number)
    .sort((a, b) => a - b);
  await saveBenchEngineConfig(
    {
      id: workflow,
      extractors_config: { q: { type: "question", task_key: "T0" } },
      reducers_config: { c: { type: "consensus", filters: { repeated_classifications: "keep_first" } } },
      rules_config: [
        { if: ["gte", ["lookup", "c.num_votes", 0], ["const", 3]], then: [{ action: "retire_subject", reason: "consensus" }] },
      ],
    },
    project,
  );
  await sql.query(`ANALYZE subjects, set_member_subjects`);
  return { workflow, subjects, setSubjects: n };
}

/**
 * `concurrency` clients creating for `seconds`: back to back (rate null) or paced to `rate` creates per
 * second in all. CPU per create of the web server, the worker(s) and PostgreSQL from /proc.
 */
async function drive(
  app: ProductionServer,
  seconds: number,
  concurrency: number,
  rate: number | null,
  fn: (i: number) => Promise<number>,
  extraWorkers: number[] = [],
) {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const roots = {
    web: app.server.pid,
    worker: app.worker.pid,
    ...Object.fromEntries(extraWorkers.map((pid, k) => [`worker_${k + 2}`, pid])),
  };
  const cpu0 = cpuSnapshot(roots);
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const i = next++;
        if (rate) {
          const due = t0 + (i * 1000) / rate;
          if (due > until) break;
          const wait = due - performance.now();
          if (wait > 0) await sleep(wait);
        }
        const t = performance.now();
        const status = await fn(i);
        if (status !== 201) failures++;
        latencies.push(performance.now() - t);
      }
    }),
  );
  const wall = performance.now() - t0;
  const cpu = cpuPerRequest(cpu0, cpuSnapshot(roots), latencies.length);
  return { creates: { ...summarize(latencies, wall), failures, paced_rate_per_s: rate ? r2(rate) : null, cpu_ms_per_create: cpu } };
}

const maxId = async (sql: pg.Pool) => (await sql.query(`SELECT coalesce(max(id), 0)::int AS id FROM classifications`)).rows[0].id as number;

/** Classifications of the workflow since `from` not yet extracted, plus engine work waiting in the inbox or as jobs. */
async function pending(sql: pg.Pool, workflow: number, from: number): Promise<number> {
  const { rows } = await sql.query(
    `SELECT (SELECT count(*) FROM classifications c WHERE c.workflow_id = $1 AND c.id > $2 AND NOT EXISTS (SELECT 1 FROM extracts e
      WHERE e.classification_id = c.id))
          + (SELECT count(*) FROM engine_inbox) + (SELECT count(*) FROM graphile_worker.jobs WHERE task_identifier LIKE 'engine/%') AS n`,
    [workflow, from],
  );
  return Number(rows[0].n);
}

/** What the phase's classifications became: retirement latency, extraction lag, nothing lost or doubled. */
async function outcome(sql: pg.Pool, workflow: number, from: number) {
  const { rows: lat } = await sql.query(
    `WITH c AS (SELECT id, created_at, subject_ids[1] AS s, row_number() OVER (PARTITION BY subject_ids[1] ORDER BY id) AS n
      FROM classifications WHERE workflow_id = $1 AND id > $2)
     SELECT extract(epoch FROM (sws.retired_at - c.created_at)) * 1000 AS ms
     FROM c JOIN subject_workflow_statuses sws ON sws.subject_id = c.s AND sws.workflow_id = $1 AND sws.retired_at IS NOT NULL WHERE c.n = 3`,
    [workflow, from],
  );
  const retire = lat.map((r) => Number(r.ms)).sort((a, b) => a - b);
  const { rows: ex } = await sql.query(
    `SELECT extract(epoch FROM (e.created_at - c.created_at)) * 1000 AS ms FROM classifications c JOIN extracts e
      ON e.classification_id = c.id WHERE c.workflow_id = $1 AND c.id > $2`,
    [workflow, from],
  );
  const lag = ex.map((r) => Number(r.ms)).sort((a, b) => a - b);
  const { rows: chk } = await sql.query(
    `SELECT (SELECT count(*)::int FROM classifications WHERE workflow_id = $1 AND id > $2) AS classifications,
            (SELECT count(*)::int FROM extracts e JOIN classifications c ON c.id = e.classification_id WHERE c.workflow_id = $1 AND c.id > $2) AS extracts,
            (SELECT count(DISTINCT subject_ids[1])::int FROM (SELECT subject_ids FROM classifications WHERE workflow_id = $1 AND id > $2
              GROUP BY 1 HAVING count(*) >= 3) x) AS subjects_due,
            (SELECT count(*)::int FROM engine_actions a WHERE a.workflow_id = $1 AND a.subject_id IN (SELECT subject_ids[1]
              FROM classifications WHERE workflow_id = $1 AND id > $2)) AS actions,
            (SELECT count(*)::int FROM engine_actions a WHERE a.workflow_id = $1 AND a.status <> 'completed') AS actions_not_completed`,
    [workflow, from],
  );
  const q = (xs: number[]) => ({ p50_ms: r2(percentile(xs, 50)), p99_ms: r2(percentile(xs, 99)), max_ms: r2(xs[xs.length - 1] ?? NaN) });
  return { create_to_retired: { retired: retire.length, ...q(retire) }, create_to_extracted: q(lag), check: chk[0] };
}

/** Every second: unextracted classifications of the phase (count, oldest age) and retirements so far. */
class Sampler {
  samples: { t_s: number; unextracted: number; oldest_unextracted_ms: number; retired: number }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private busy: Promise<void> = Promise.resolve();
  private t0 = Date.now();
  private watermark: number;
  constructor(
    private sql: pg.Pool,
    private workflow: number,
    from: number,
  ) {
    this.watermark = from;
  }
  start() {
    this.t0 = Date.now();
    this.timer = setInterval(() => (this.busy = this.busy.then(() => this.sample()).catch(() => {})), 1000);
  }
  private async sample() {
    const { rows } = await this.sql.query(
      `SELECT count(*)::int AS n, min(c.id) AS first, extract(epoch FROM (clock_timestamp() - min(c.created_at))) * 1000 AS age,
              (SELECT count(*)::int FROM subject_workflow_statuses WHERE workflow_id = $1 AND retired_at IS NOT NULL) AS retired
       FROM classifications c WHERE c.workflow_id = $1 AND c.id > $2 AND NOT EXISTS (SELECT 1 FROM extracts e WHERE e.classification_id = c.id)`,
      [this.workflow, this.watermark],
    );
    if (rows[0].first) this.watermark = Number(rows[0].first) - 1;
    this.samples.push({
      t_s: Math.round((Date.now() - this.t0) / 1000),
      unextracted: rows[0].n,
      oldest_unextracted_ms: Math.round(Number(rows[0].age ?? 0)),
      retired: rows[0].retired,
    });
  }
  async stop() {
    if (this.timer) clearInterval(this.timer);
    await this.busy;
    const base = this.samples[0]?.retired ?? 0;
    let prev = base;
    for (const s of this.samples) {
      const total = s.retired;
      s.retired = total - prev;
      prev = total;
    }
  }
}

/**
 * pg_stat_activity every 100 ms: per application (quorum-web, quorum-worker, ...) the share of samples
 * its active connections spent running (CPU) or waiting, by wait event, and for lock waits whose lock
 * they waited for (pg_blocking_pids' application and the relation).
 */
class WaitSampler {
  private counts = new Map<string, number>();
  private samples = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  constructor(private sql: pg.Pool) {}
  start() {
    this.timer = setInterval(() => {
      if (!this.running)
        this.running = this.sample()
          .catch(() => {})
          .finally(() => (this.running = null));
    }, 100);
  }
  private async sample() {
    {
      const { rows } = await this.sql.query(
        `SELECT a.application_name AS app, coalesce(a.wait_event_type || ':' || a.wait_event, 'running') AS ev,
                CASE WHEN a.wait_event_type = 'Lock' THEN
                  (SELECT string_agg(DISTINCT b.application_name, '+') FROM pg_stat_activity b WHERE b.pid = ANY(pg_blocking_pids(a.pid))) || ' ' ||
                  coalesce((SELECT l.locktype || coalesce(' ' || c.relname, '') FROM pg_locks l LEFT JOIN pg_class c
                    ON c.oid = l.relation WHERE l.pid = a.pid AND NOT l.granted LIMIT 1), '')
                END AS blocker
         FROM pg_stat_activity a WHERE a.datname = current_database() AND a.state = 'active' AND a.pid <> pg_backend_pid()
           AND a.application_name LIKE 'quorum-%'`,
      );
      this.samples++;
      for (const r of rows) {
        const key = `${r.app} ${r.ev}${r.blocker ? ` (held by ${r.blocker})` : ""}`;
        this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
      }
    }
  }
  async stop() {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
  /** Active connections per sample, by what they were doing (mean over the samples), largest first. */
  summary() {
    const entries = [...this.counts].sort((a, b) => b[1] - a[1]).slice(0, 14);
    return {
      samples: this.samples,
      active_connections_by_state: Object.fromEntries(entries.map(([k, n]) => [k, r2(n / Math.max(1, this.samples))])),
    };
  }
}
