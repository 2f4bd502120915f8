import { parse } from "csv-parse";
import { db, pool } from "@/lib/db";
import { type Sql, withTransaction } from "@/lib/db/sql";
import { countUploads, uploadStanding } from "./subject-limit";
import { storage } from "@/lib/storage/storage";
import { JobFailure, runBackgroundJob } from "./background-jobs";
import { manifestRow, parseManifestHeader, type Column, type ManifestRow } from "@/lib/text/manifest-rows";

// Subject manifest import: POST /api/subject_sets/<id>/imports with a CSV body (Content-Type text/csv)
// stores the file and starts a `subject_import` job, which creates one subject per row in the set.
//
// Columns: `location:<mime>` (e.g. `location:image/png`) is a location of that type; `location`,
// `location_2`, `locations_3`... are locations typed by their file extension; `external_id` is the
// subject's external id; every other column is a metadata key (values are strings). Location values are
// http(s) URLs, or file names resolved against the request's `base_url` parameter. Empty location cells are
// skipped; a row needs at least one location.
//
// The job first reads the whole file to validate it (and count `total`): a bad file fails the job with a
// message naming the line, and nothing is imported. Then it inserts 1,000 rows per transaction, recording
// `progress` (rows imported) in the same transaction, so after a crash it resumes after the last committed
// batch and never imports a row twice. The uploader's subject limit (./subject-limit.ts) is checked on the
// whole file before the first batch and counted again by each batch.

export const SUBJECT_IMPORT = "subject_import";
const BATCH = 1000;

export interface ImportParams {
  subject_set_id: number;
  source_key: string;
  base_url: string | null;
}

/** Rows of the manifest in storage with their line numbers (the header is row 0). */
async function* manifestRecords(key: string): AsyncGenerator<{ record: string[]; line: number }> {
  const object = await storage().getObjectStream(key);
  if (!object) throw new JobFailure("the uploaded manifest is gone");
  const parser = object.stream.pipe(parse({ bom: true, skip_empty_lines: true, relax_quotes: false, info: true }));
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>)
      yield { record, line: info.lines };
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith("CSV_")) throw new JobFailure(`invalid CSV: ${(err as Error).message}`);
    throw err;
  } finally {
    object.stream.destroy();
  }
}

/**
 * Checks every row and answers how many there are; stops reading once there are more than `maxRows` (the
 * uploader's room under the subject limit), so a file past the limit costs no more than the limit.
 */
async function validateManifest(params: ImportParams, maxRows: number, tooMany: () => Promise<Error>): Promise<number> {
  let columns: Column[] | null = null;
  let rows = 0;
  for await (const { record, line } of manifestRecords(params.source_key)) {
    if (!columns) columns = parseManifestHeader(record);
    else {
      manifestRow(columns, record, params.base_url, line);
      if (++rows > maxRows) throw await tooMany();
    }
  }
  if (!columns) throw new JobFailure("the manifest is empty");
  return rows;
}

async function insertBatch(
  jobId: number,
  target: { setId: number; projectId: number; userId: number | null },
  rows: ManifestRow[],
  done: number,
): Promise<void> {
  await withTransaction(async (client) => {
    // Moving progress first locks the job row: a second runner of the same job waits here, then finds
    // progress moved and gives up instead of importing the batch again.
    const claimed = await client.query(
      `UPDATE background_jobs SET progress = progress + $2, updated_at = now() WHERE id = $1 AND progress = $3 AND status = 'running'`,
      [jobId, rows.length, done],
    );
    if (claimed.rowCount !== 1) throw new Error(`subject import ${jobId}: progress moved under us (another worker runs it)`);
    // The batch's subjects are counted against the uploader's limit first: an import that ran alongside
    // another (both checked before either inserted) stops here at the limit, never past it.
    if (target.userId !== null && !(await countUploads(client, target.userId, rows.length)))
      throw await overLimit(client, target.userId, rows.length);
    const inserted = await client.query(
      `WITH input AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS t(metadata, locations, external_id, ord)),
       created AS (
         INSERT INTO subjects (project_id, upload_user_id, metadata, locations, external_id)
         SELECT $4, $5, metadata::jsonb, locations::jsonb, external_id FROM input ORDER BY ord
         RETURNING id, metadata)
       INSERT INTO set_member_subjects (subject_set_id, subject_id, priority)
       SELECT $6, id, CASE WHEN metadata->>'#priority' ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN (metadata->>'#priority')::float8 END FROM created`,
      [
        rows.map((r) => JSON.stringify(r.metadata)),
        rows.map((r) => JSON.stringify(r.locations)),
        rows.map((r) => r.externalId),
        target.projectId,
        target.userId,
        target.setId,
      ],
    );
    const n = inserted.rowCount ?? 0;
    await client.query(
      `UPDATE subject_sets SET set_member_subjects_count = set_member_subjects_count + $2, updated_at = now() WHERE id = $1`,
      [target.setId, n],
    );
    await client.query(`UPDATE projects SET subjects_count = subjects_count + $2 WHERE id = $1`, [target.projectId, n]);
  });
}

export interface ImportHooks {
  /** Called after each committed batch with the rows imported so far (tests simulate crashes here). */
  afterBatch?(progress: number): void | Promise<void>;
  /** Called once the manifest has been checked against the uploader's limit, before any batch (tests line two imports up here). */
  afterCheck?(): void | Promise<void>;
}

/** The failure of an import of more than `n - 1` subjects (`atLeast`) or of `n` that would pass the uploader's subject limit. */
async function overLimit(sql: Sql, userId: number, n: number, atLeast = false): Promise<JobFailure> {
  const standing = await uploadStanding(sql, userId);
  return new JobFailure(
    `importing ${atLeast ? "more than " : ""}${atLeast ? n - 1 : n} subjects would pass your limit of ${standing?.limit ?? "?"} ` +
      `uploaded subjects (${standing?.uploaded ?? "?"} uploaded); ask an admin to raise it`,
  );
}

/** The `subject_import` task: validates the manifest once, then imports it from where it left off. */
export async function runSubjectImport(jobId: number, hooks: ImportHooks = {}): Promise<void> {
  await runBackgroundJob(jobId, SUBJECT_IMPORT, async (job) => {
    const params = job.params as unknown as ImportParams;
    const set = await db().subjectSet.findUnique({ where: { id: params.subject_set_id }, select: { id: true, projectId: true } });
    if (!set) throw new JobFailure("the subject set was deleted");
    let total = job.total;
    if (total === null) {
      // The whole import must fit, so one past the limit imports nothing (each batch counts again, below).
      const { userId } = job;
      const standing = userId === null ? null : await uploadStanding(pool(), userId);
      const room = standing ? Math.max(0, standing.limit - standing.uploaded) : Number.POSITIVE_INFINITY;
      total = await validateManifest(params, room, () => overLimit(pool(), userId!, room + 1, true));
      await db().backgroundJob.update({ where: { id: jobId }, data: { total } });
    }
    await hooks.afterCheck?.();
    let done = job.progress;
    let index = 0;
    let columns: Column[] | null = null;
    let batch: ManifestRow[] = [];
    const target = { setId: set.id, projectId: set.projectId, userId: job.userId };
    const flush = async () => {
      await insertBatch(jobId, target, batch, done);
      done += batch.length;
      batch = [];
      await hooks.afterBatch?.(done);
    };
    for await (const { record, line } of manifestRecords(params.source_key)) {
      if (!columns) {
        columns = parseManifestHeader(record);
        continue;
      }
      if (index++ < done) continue;
      batch.push(manifestRow(columns, record, params.base_url, line));
      if (batch.length === BATCH) await flush();
    }
    if (batch.length) await flush();
    await storage().deleteObject(params.source_key);
    return null;
  });
}
