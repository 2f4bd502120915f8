import { parse } from "csv-parse/sync";
import type { Actor } from "@/lib/auth/actor";
import { db, pool } from "@/lib/db";
import { withTransaction } from "@/lib/db/sql";
import { JobFailure, runBackgroundJob, startBackgroundJob } from "@/lib/domain/background-jobs";
import { MAX_JSON_DEPTH, parseBoundedJson } from "@/lib/text/json-depth";
import { OutboundError, outboundFetch, type OutboundResponse } from "@/lib/net/outbound-fetch";
import { engineScope, subjectsOutside } from "./boundary";
import { enqueueEvents } from "./enqueue-events";
import { EVENTS } from "./events";

// Machine-made extracts imported from a CSV (the established engine's `extracts/import`):
// POST /engine/workflows/<id>/extracts/import {"file": "<http(s) URL of the CSV>"} answers 202 and starts a
// background job (`engine_extracts_import`, visible as a background_jobs record of the project). The job
// downloads the file through the outbound guard (lib/net/outbound-fetch.ts; at most
// EXTRACTS_IMPORT_MAX_BYTES), validates every row first (columns `extractor_key`, `subject_id`, `data` as
// a JSON object; a bad file fails the job naming the line, never quoting it, and nothing is imported),
// then upserts one extract per subject and extractor key, 1,000 rows per transaction with `progress`
// committed alongside (a crashed import resumes), and starts reduction of each subject it touched. A
// machine extract has no classification: it takes a negative id from engine_machine_extract_ids, so it is
// an extract like any other to the reducers, and importing the same subject and key again replaces its data.

export const ENGINE_EXTRACTS_IMPORT = "engine_extracts_import";
const BATCH = 1000;
const maxBytes = () => Number(process.env.EXTRACTS_IMPORT_MAX_BYTES ?? 50 * 1024 * 1024);
const DOWNLOAD_TIMEOUT_MS = 60_000;

interface ImportParams {
  workflow_id: number;
  url: string;
}
interface Row {
  subjectId: number;
  extractorKey: string;
  data: string;
}

/** Starts an import (the caller checked who may): a background job of the workflow's project. */
export function startExtractsImport(actor: Actor, workflowId: number, projectId: number, url: string) {
  return db().$transaction((tx) => startBackgroundJob(tx, actor, ENGINE_EXTRACTS_IMPORT, projectId, { workflow_id: workflowId, url }));
}

/** What a retry cannot change: the guard refused the URL, or the file is too large. */
const FINAL_OUTBOUND_ERRORS = new Set(["invalid-url", "refused", "redirect-refused", "too-many-redirects", "too-large"]);

// The file comes from a URL a project's editor gave: it is fetched through the outbound guard (no
// loopback, private or metadata addresses, each redirect checked), and nothing of its content is ever put
// in the job's error, which its editors read (a local file served on an internal port must not come back).
async function download(url: string): Promise<string> {
  const limit = maxBytes();
  let res: OutboundResponse;
  try {
    res = await outboundFetch(url, { maxBytes: limit, timeoutMs: DOWNLOAD_TIMEOUT_MS });
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    if (err.kind === "too-large") throw new JobFailure(`the CSV is larger than ${limit} bytes (EXTRACTS_IMPORT_MAX_BYTES)`);
    if (FINAL_OUTBOUND_ERRORS.has(err.kind)) throw new JobFailure(`could not download ${url}: ${err.message}`);
    throw new Error(`could not download ${url}: ${err.message}`); // retried
  }
  if (res.status >= 500) throw new Error(`${url} answered HTTP ${res.status}`); // retried
  if (res.status < 200 || res.status > 299) throw new JobFailure(`${url} answered HTTP ${res.status}`);
  return res.body.toString("utf8");
}

/** csv-parse's errors in our words: its own messages quote the file (field names, values). */
const CSV_PROBLEMS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: "a quote is not closed",
  CSV_INVALID_CLOSING_QUOTE: "a quote closes a field in its middle",
  INVALID_OPENING_QUOTE: "a quote opens in the middle of a field",
  CSV_RECORD_INCONSISTENT_COLUMNS: "a row has another number of fields than the header",
  CSV_RECORD_INCONSISTENT_FIELDS_LENGTH: "a row has another number of fields than the header",
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: "a character follows a closing quote",
};

function csvProblem(err: unknown): string {
  const { code, lines } = err as { code?: unknown; lines?: unknown };
  const what = typeof code === "string" && CSV_PROBLEMS[code] ? CSV_PROBLEMS[code] : "it cannot be parsed";
  return typeof lines === "number" ? `line ${lines}: ${what}` : what;
}

/** Every row, validated: the first bad one fails the whole import (nothing written). */
function parseRows(text: string): Row[] {
  let records: Record<string, string>[];
  try {
    records = parse(text, { columns: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (err) {
    throw new JobFailure(`the file is not valid CSV: ${csvProblem(err)}`);
  }
  const header = records.length ? Object.keys(records[0]) : [];
  for (const column of ["extractor_key", "subject_id", "data"]) {
    // The header the file has is not told: it is the file's first line.
    if (records.length && !header.includes(column))
      throw new JobFailure(`the CSV needs the columns extractor_key, subject_id and data ('${column}' is missing)`);
  }
  return records.map((r, i) => {
    const line = i + 2;
    const subjectId = Number(r.subject_id);
    if (!/^\d{1,10}$/.test(r.subject_id ?? "") || subjectId <= 0 || subjectId > 2147483647)
      throw new JobFailure(`line ${line}: subject_id must be a positive integer`);
    const extractorKey = r.extractor_key ?? "";
    if (!/^[\w-]{1,64}$/.test(extractorKey)) throw new JobFailure(`line ${line}: extractor_key must be 1-64 letters, digits, _ or -`);
    // Deeper JSON could not be stored (stringifying it for the insert would overflow the stack).
    const parsed = parseBoundedJson(r.data ?? "");
    if (!parsed.ok)
      throw new JobFailure(
        parsed.reason === "too_deep"
          ? `line ${line}: data is nested too deeply (more than ${MAX_JSON_DEPTH} levels)`
          : `line ${line}: data must be JSON`,
      );
    const data = parsed.value;
    if (!data || typeof data !== "object" || Array.isArray(data)) throw new JobFailure(`line ${line}: data must be a JSON object`);
    return { subjectId, extractorKey, data: JSON.stringify(data) };
  });
}

/** Upserts one batch of machine extracts and starts reduction of their subjects, with progress, in one transaction. */
async function importBatch(jobId: number, workflowId: number, rows: Row[], progress: number, total: number): Promise<void> {
  // The same subject and key twice in one batch: the later row wins (one statement cannot see its own inserts).
  const unique = [...new Map(rows.map((r) => [`${r.subjectId}:${r.extractorKey}`, r])).values()];
  await withTransaction(async (client) => {
    await client.query(
      `INSERT INTO extracts (workflow_id, subject_id, user_id, classification_id, classification_at, extractor_key, data, updated_at)
       SELECT $1, x.s, NULL,
              coalesce((SELECT e.classification_id FROM extracts e WHERE e.workflow_id = $1 AND e.subject_id = x.s
                AND e.extractor_key = x.k AND e.classification_id < 0 LIMIT 1),
                       -nextval('engine_machine_extract_ids')),
              now(), x.k, x.d::jsonb, now()
       FROM unnest($2::int[], $3::text[], $4::text[]) AS x(s, k, d)
       ON CONFLICT (workflow_id, classification_id, extractor_key) DO UPDATE SET data = excluded.data, updated_at = now()`,
      [workflowId, unique.map((r) => r.subjectId), unique.map((r) => r.extractorKey), unique.map((r) => r.data)],
    );
    const subjects = [...new Set(unique.map((r) => r.subjectId))];
    await enqueueEvents(
      client,
      subjects.map((id) => ({ name: EVENTS.extractsChanged, data: { workflow_id: workflowId, topic: "subject" as const, target_id: id } })),
    );
    await client.query(`UPDATE background_jobs SET progress = $2, total = $3, updated_at = now() WHERE id = $1`, [jobId, progress, total]);
  });
}

/** Every subject the file names must be one of the workflow's project (checked before anything is written). */
async function requireSubjectsOfWorkflow(workflowId: number, rows: Row[]): Promise<void> {
  const scope = await engineScope(pool(), workflowId);
  if (!scope?.projectId) throw new JobFailure(`workflow ${workflowId} is not a workflow of a project in the decision engine`);
  const [foreign] = await subjectsOutside(
    pool(),
    scope.projectId,
    rows.map((r) => r.subjectId),
  );
  if (foreign !== undefined)
    throw new JobFailure(
      `line ${rows.findIndex((r) => r.subjectId === foreign) + 2}: subject ${foreign} is not a subject of workflow ${workflowId}'s project`,
    );
}

export function runExtractsImport(jobId: number): Promise<void> {
  return runBackgroundJob(jobId, ENGINE_EXTRACTS_IMPORT, async (job) => {
    const { workflow_id: workflowId, url } = job.params as unknown as ImportParams;
    const rows = parseRows(await download(url));
    await requireSubjectsOfWorkflow(workflowId, rows);
    for (let from = job.progress; from < rows.length; from += BATCH) {
      const to = Math.min(from + BATCH, rows.length);
      await importBatch(job.id, workflowId, rows.slice(from, to), to, rows.length);
    }
    if (!rows.length) await db().backgroundJob.update({ where: { id: job.id }, data: { total: 0 } });
    return null;
  });
}
