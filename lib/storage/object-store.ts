import crypto from "node:crypto";
import { Readable, Transform } from "node:stream";
import { publicBaseUrl } from "@/lib/env";
import { AppError } from "@/lib/errors";

// What every storage backend shares (./storage.ts on local disk, ./s3-storage.ts in a bucket): the
// interface, the key rules, the byte meter and the URLs objects are served at.

export interface StoredObject {
  stream: Readable;
  size: number;
  contentType: string;
  etag: string;
  modifiedAt: Date;
}

export interface PutOptions {
  contentType: string;
  /** Larger bodies are refused with 413 and nothing is stored. */
  maxBytes?: number;
}

export interface Storage {
  putObject(key: string, body: Readable | Buffer | string, opts: PutOptions): Promise<{ size: number; etag: string }>;
  /** null when there is no such object. */
  getObjectStream(key: string): Promise<StoredObject | null>;
  exists(key: string): Promise<boolean>;
  deleteObject(key: string): Promise<void>;
  /** The stable URL GET serves the object at (/uploads/<key> on this server). */
  publicUrl(key: string): string;
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

export function isStorageKey(key: string): boolean {
  return key.length <= 500 && KEY.test(key) && !key.endsWith(".meta.json");
}

export function checkKey(key: string): void {
  if (!isStorageKey(key)) throw new Error(`invalid storage key '${key}'`);
}

/** Counts bytes and hashes them on the way through; fails with 413 past the limit. */
export function meter(maxBytes: number) {
  const hash = crypto.createHash("md5");
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new AppError("too_large", `The file is larger than the limit of ${maxBytes} bytes`));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { stream, result: () => ({ size, etag: hash.digest("hex") }) };
}

export function bodyStream(body: Readable | Buffer | string): Readable {
  return typeof body === "string" || Buffer.isBuffer(body) ? Readable.from([Buffer.from(body)]) : body;
}

/** /uploads/<key> on this server, whatever the backend. */
export function uploadsUrl(key: string): string {
  checkKey(key);
  return `${publicBaseUrl()}/uploads/${key}`;
}

/** The key of one of our objects from its public URL, or null for files hosted elsewhere. */
export function keyFromPublicUrl(url: string): string | null {
  const prefix = `${publicBaseUrl()}/uploads/`;
  if (!url.startsWith(prefix)) return null;
  const key = url.slice(prefix.length);
  return isStorageKey(key) ? key : null;
}
