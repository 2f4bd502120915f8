import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { dataDir } from "@/lib/env";
import { bodyStream, checkKey, meter, uploadsUrl, type PutOptions, type Storage, type StoredObject } from "./object-store";
import { S3Storage, s3ConfigFromEnv } from "./s3-storage";

export * from "./object-store";

// Where files live: subject media uploaded by clients, CSV manifests waiting to be imported, CSV exports.
// Objects are addressed by a key ("subjects/12/<uuid>.png"); the default implementation keeps them on
// local disk under DATA_DIR/uploads, with the content type and ETag in a sidecar file. With S3_BUCKET set
// they live in an S3 bucket instead (./s3-storage.ts). Either way clients reach them through this
// server's /uploads/<key> routes, never the backend directly.

export class LocalDiskStorage implements Storage {
  constructor(readonly root: string) {}

  private file(key: string): string {
    checkKey(key);
    return path.join(this.root, ...key.split("/"));
  }

  async putObject(key: string, body: Readable | Buffer | string, opts: PutOptions) {
    const file = this.file(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${crypto.randomUUID()}.tmp`;
    const m = meter(opts.maxBytes ?? Number.MAX_SAFE_INTEGER);
    try {
      await pipeline(bodyStream(body), m.stream, fs.createWriteStream(tmp));
      const { size, etag } = m.result();
      // The sidecar goes first: an object is visible once its data file exists.
      await fs.promises.writeFile(`${file}.meta.json`, JSON.stringify({ contentType: opts.contentType, size, etag }));
      await fs.promises.rename(tmp, file);
      return { size, etag };
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
  }

  async getObjectStream(key: string): Promise<StoredObject | null> {
    const file = this.file(key);
    let stat: fs.Stats;
    let meta: { contentType?: string; etag?: string } = {};
    try {
      stat = await fs.promises.stat(file);
      meta = JSON.parse(await fs.promises.readFile(`${file}.meta.json`, "utf8"));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT" && !stat!) return null;
      if (!stat!) throw err;
    }
    return {
      stream: fs.createReadStream(file),
      size: stat.size,
      contentType: meta.contentType ?? "application/octet-stream",
      etag: meta.etag ?? `${stat.size}-${stat.mtimeMs}`,
      modifiedAt: stat.mtime,
    };
  }

  async exists(key: string): Promise<boolean> {
    return fs.promises.access(this.file(key)).then(
      () => true,
      () => false,
    );
  }

  async deleteObject(key: string): Promise<void> {
    const file = this.file(key);
    await fs.promises.rm(file, { force: true });
    await fs.promises.rm(`${file}.meta.json`, { force: true });
  }

  publicUrl(key: string): string {
    return uploadsUrl(key);
  }
}

let s3: { config: string; storage: S3Storage } | null = null;

/** Where local-disk storage keeps its files: DATA_DIR/uploads. */
export function localUploadsDir(dir = dataDir()): string {
  return path.join(dir, "uploads");
}

/** The configured storage: an S3 bucket when S3_BUCKET is set, else local disk under DATA_DIR/uploads. */
export function storage(): Storage {
  const config = s3ConfigFromEnv();
  if (!config) return new LocalDiskStorage(localUploadsDir());
  // One client (and its connection pool) per configuration.
  const id = JSON.stringify(config);
  if (s3?.config !== id) s3 = { config: id, storage: new S3Storage(config) };
  return s3.storage;
}
