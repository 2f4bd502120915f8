import crypto from "node:crypto";
import pg from "pg";
import { GET as getFile, PUT as putFile } from "@/app/uploads/[...key]/route";
import { closeDb } from "@/lib/db";
import { api } from "./http";

// For the backup and restore tests (lib/backup/): plain queries against any server, every table's row count
// (what a restored database must equal), pointing the in-process app at another database, and uploads
// through the signed-URL routes.

export async function query<T = Record<string, unknown>>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Row counts of every table of the app and the job queue. */
export async function tableCounts(url: string): Promise<Record<string, number>> {
  const tables = await query<{ name: string }>(
    url,
    `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
      WHERE schemaname IN ('public', 'graphile_worker') ORDER BY 1`,
  );
  const out: Record<string, number> = {};
  for (const { name } of tables) out[name] = Number((await query<{ n: string }>(url, `SELECT count(*) AS n FROM ${name}`))[0].n);
  return out;
}

/** Points the in-process app at another database and DATA_DIR. */
export async function useDatabase(url: string, dataDir: string) {
  await closeDb();
  process.env.DATABASE_URL = url;
  process.env.DATA_DIR = dataDir;
}

/** GET or PUT /uploads/<key> (a signed URL for a PUT) through its route. */
export async function file(method: "GET" | "PUT", url: string, body?: Buffer, contentType?: string) {
  const u = new URL(url);
  const req = new Request(new URL(u.pathname + u.search, "http://quorum.test"), {
    method,
    body: body as BodyInit | undefined,
    headers: contentType ? { "content-type": contentType } : {},
  });
  const key = u.pathname.replace(/^\/uploads\//, "").split("/");
  const res = await (method === "GET" ? getFile : putFile)(req, { params: Promise.resolve({ key }) });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

export interface Upload {
  subjectId: number;
  /** The file's public URL (the subject's location). */
  url: string;
  key: string;
  bytes: Buffer;
}

/** A subject of `projectId` with a PNG uploaded to its signed URL; answered once the upload is acknowledged. */
export async function uploadSubject(projectId: number, token: string): Promise<Upload> {
  const created = await api.post(
    "/subjects",
    { subjects: { locations: ["image/png"], metadata: {}, links: { project: String(projectId) } } },
    { token },
  );
  if (created.status !== 201) throw new Error(`subject create answered ${created.status}: ${created.text}`);
  const signed: string = created.body.subjects[0].locations[0]["image/png"];
  const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), crypto.randomBytes(3000)]);
  const put = await file("PUT", signed, bytes, "image/png");
  if (put.status !== 200) throw new Error(`upload answered ${put.status}`);
  const url = signed.split("?")[0];
  return { subjectId: Number(created.body.subjects[0].id), url, key: new URL(url).pathname.replace(/^\/uploads\//, ""), bytes };
}
