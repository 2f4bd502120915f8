import crypto from "node:crypto";
import { Readable } from "node:stream";
import { parse } from "csv-parse";
import { hasScope } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { withTransaction } from "@/lib/db/sql";
import { env } from "@/lib/env";
import { apiRoute } from "@/lib/http/api-route";
import { ApiError, forbidden, unauthorized, unprocessable } from "@/lib/http/api-error";
import { findVisible } from "@/lib/http/resource-routes";
import { parsePathId } from "@/lib/http/request";
import { subjectSets } from "@/lib/resources/subject-sets";
import { storage } from "@/lib/storage/storage";
import { JobFailure, jobCreatedResponse, runBackgroundJob, startBackgroundJob } from "./background-jobs";
import { requireEditableProject } from "./require-editable-project";
import { parseLocations } from "./subject-locations";

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
// batch and never imports a row twice.

export const SUBJECT_IMPORT = "subject_import";
const BATCH = 1000;

const EXTENSION_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  tif: "image/tiff",
  tiff: "image/tiff",
  mp4: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  wav: "audio/wav",
  ogg: "audio/ogg",
  txt: "text/plain",
  json: "application/json",
  pdf: "application/pdf",
};

interface ImportParams {
  subject_set_id: number;
  source_key: string;
  base_url: string | null;
}

type Column = { kind: "location"; mime: string | null } | { kind: "external_id" } | { kind: "metadata"; name: string };

interface ManifestRow {
  metadata: Record<string, string>;
  locations: Record<string, string>[];
  externalId: string | null;
}

export function parseManifestHeader(header: string[]): Column[] {
  const seen = new Set<string>();
  const columns = header.map((raw, i): Column => {
    const name = raw.trim();
    if (!name) throw new JobFailure(`column ${i + 1} of the header has no name`);
    if (seen.has(name.toLowerCase())) throw new JobFailure(`the header names '${name}' twice`);
    seen.add(name.toLowerCase());
    const typed = /^location:(.+)$/i.exec(name);
    if (typed) {
      const mime = typed[1].trim().toLowerCase();
      try {
        parseLocations([mime]);
      } catch {
        throw new JobFailure(`header '${name}': '${mime}' is not an accepted media type`);
      }
      return { kind: "location", mime };
    }
    if (/^locations?(_?\d+)?$/i.test(name)) return { kind: "location", mime: null };
    if (name.toLowerCase() === "external_id") return { kind: "external_id" };
    return { kind: "metadata", name };
  });
  if (!columns.some((c) => c.kind === "location")) throw new JobFailure("the header needs a location column ('location', or 'location:<mime type>')");
  return columns;
}

function locationUrl(value: string, baseUrl: string | null, line: number): string {
  if (/^https?:\/\//i.test(value)) return value;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) || !baseUrl) throw new JobFailure(`line ${line}: '${value}' is not an http(s) URL${baseUrl ? "" : " (give base_url to import file names)"}`);
  return new URL(value.replace(/^\/+/, ""), baseUrl).toString();
}

export function manifestRow(columns: Column[], record: string[], baseUrl: string | null, line: number): ManifestRow {
  const row: ManifestRow = { metadata: {}, locations: [], externalId: null };
  columns.forEach((c, i) => {
    const value = record[i] ?? "";
    if (c.kind === "metadata") row.metadata[c.name] = value;
    else if (c.kind === "external_id") row.externalId = value || null;
    else if (value.trim()) {
      const url = locationUrl(value.trim(), baseUrl, line);
      const ext = /\.([a-z0-9]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? "";
      const mime = c.mime ?? EXTENSION_TYPES[ext];
      if (!mime) throw new JobFailure(`line ${line}: cannot tell the media type of '${value}' (name the column 'location:<mime type>')`);
      row.locations.push({ [mime]: url });
    }
  });
  if (!row.locations.length) throw new JobFailure(`line ${line}: no location`);
  if (row.locations.length > 20) throw new JobFailure(`line ${line}: more than 20 locations`);
  return row;
}

/** Rows of the manifest in storage with their line numbers (the header is row 0). */
async function* manifestRecords(key: string): AsyncGenerator<{ record: string[]; line: number }> {
  const object = await storage().getObjectStream(key);
  if (!object) throw new JobFailure("the uploaded manifest is gone");
  const parser = object.stream.pipe(parse({ bom: true, skip_empty_lines: true, relax_quotes: false, info: true }));
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) yield { record, line: info.lines };
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith("CSV_")) throw new JobFailure(`invalid CSV: ${(err as Error).message}`);
    throw err;
  } finally {
    object.stream.destroy();
  }
}

async function validateManifest(params: ImportParams): Promise<number> {
  let columns: Column[] | null = null;
  let rows = 0;
  for await (const { record, line } of manifestRecords(params.source_key)) {
    if (!columns) columns = parseManifestHeader(record);
    else {
      manifestRow(columns, record, params.base_url, line);
      rows++;
    }
  }
  if (!columns) throw new JobFailure("the manifest is empty");
  return rows;
}

async function insertBatch(jobId: number, target: { setId: number; projectId: number; userId: number | null }, rows: ManifestRow[], done: number): Promise<void> {
  await withTransaction(async (client) => {
    // Moving progress first locks the job row: a second runner of the same job waits here, then finds
    // progress moved and gives up instead of importing the batch again.
    const claimed = await client.query(`UPDATE background_jobs SET progress = progress + $2, updated_at = now() WHERE id = $1 AND progress = $3 AND status = 'running'`, [jobId, rows.length, done]);
    if (claimed.rowCount !== 1) throw new Error(`subject import ${jobId}: progress moved under us (another worker runs it)`);
    const inserted = await client.query(
      `WITH input AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS t(metadata, locations, external_id, ord)),
       created AS (
         INSERT INTO subjects (project_id, upload_user_id, metadata, locations, external_id)
         SELECT $4, $5, metadata::jsonb, locations::jsonb, external_id FROM input ORDER BY ord
         RETURNING id, metadata)
       INSERT INTO set_member_subjects (subject_set_id, subject_id, priority)
       SELECT $6, id, CASE WHEN metadata->>'#priority' ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN (metadata->>'#priority')::float8 END FROM created`,
      [rows.map((r) => JSON.stringify(r.metadata)), rows.map((r) => JSON.stringify(r.locations)), rows.map((r) => r.externalId), target.projectId, target.userId, target.setId],
    );
    const n = inserted.rowCount ?? 0;
    await client.query(`UPDATE subject_sets SET set_member_subjects_count = set_member_subjects_count + $2, updated_at = now() WHERE id = $1`, [target.setId, n]);
    await client.query(`UPDATE projects SET subjects_count = subjects_count + $2 WHERE id = $1`, [target.projectId, n]);
    if (target.userId !== null) await client.query(`UPDATE users SET uploaded_subjects_count = uploaded_subjects_count + $2 WHERE id = $1`, [target.userId, n]);
  });
}

export interface ImportHooks {
  /** Called after each committed batch with the rows imported so far (tests simulate crashes here). */
  afterBatch?(progress: number): void | Promise<void>;
}

/** The `subject_import` task: validates the manifest once, then imports it from where it left off. */
export async function runSubjectImport(jobId: number, hooks: ImportHooks = {}): Promise<void> {
  await runBackgroundJob(jobId, SUBJECT_IMPORT, async (job) => {
    const params = job.params as unknown as ImportParams;
    const set = await db().subjectSet.findUnique({ where: { id: params.subject_set_id }, select: { id: true, projectId: true } });
    if (!set) throw new JobFailure("the subject set was deleted");
    let total = job.total;
    if (total === null) {
      total = await validateManifest(params);
      if (job.userId !== null) {
        const user = await db().user.findUnique({ where: { id: job.userId }, select: { subjectLimit: true, uploadedSubjectsCount: true, admin: true } });
        if (user && !user.admin && user.subjectLimit !== null && user.uploadedSubjectsCount + total > user.subjectLimit) {
          throw new JobFailure(`importing ${total} subjects would pass your limit of ${user.subjectLimit} uploaded subjects`);
        }
      }
      await db().backgroundJob.update({ where: { id: jobId }, data: { total } });
    }
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

/** POST /api/subject_sets/<id>/imports[?base_url=]: stores the CSV body and starts the import (201, the job). */
export const startSubjectImport = apiRoute(
  async (ctx) => {
    const actor = await ctx.actor();
    if (!actor.user) throw unauthorized("You must be signed in to do that");
    if (!hasScope(actor, "project") && !hasScope(actor, "subject")) throw forbidden("This token lacks the 'subject' scope");
    if (!/^text\/csv\b/i.test(ctx.req.headers.get("content-type") ?? "")) throw new ApiError(415, "Send the manifest as the request body with Content-Type: text/csv");
    const baseUrl = ctx.url.searchParams.get("base_url");
    if (baseUrl !== null && !/^https?:\/\/[^\s]+$/i.test(baseUrl)) throw unprocessable("base_url must be an http(s) URL");
    const set = await findVisible(subjectSets, parsePathId(ctx.params.id, "subject_sets"), actor);
    await db().$transaction((tx) => requireEditableProject(tx, actor, set.projectId, "subject_set"));
    const max = env().IMPORT_MAX_BYTES;
    if (Number(ctx.req.headers.get("content-length") ?? 0) > max) throw new ApiError(413, `The manifest is larger than the limit of ${max} bytes`);
    if (!ctx.req.body) throw unprocessable("The request body (the CSV manifest) is empty");
    const key = `imports/${set.id}-${crypto.randomUUID()}.csv`;
    const { size } = await storage().putObject(key, Readable.fromWeb(ctx.req.body as never), { contentType: "text/csv", maxBytes: max });
    if (size === 0) {
      await storage().deleteObject(key);
      throw unprocessable("The request body (the CSV manifest) is empty");
    }
    try {
      const params: ImportParams = { subject_set_id: set.id, source_key: key, base_url: baseUrl ? (baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`) : null };
      const job = await db().$transaction((tx) => startBackgroundJob(tx, actor, SUBJECT_IMPORT, set.projectId, { ...params }));
      return jobCreatedResponse(ctx, job);
    } catch (err) {
      await storage().deleteObject(key);
      throw err;
    }
  },
  { alsoAccepts: /^text\/csv\b/i },
);
