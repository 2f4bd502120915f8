import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client, type S3ClientConfig } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { z } from "zod";
import { bodyStream, checkKey, meter, uploadsUrl, type PutOptions, type Storage, type StoredObject } from "./object-store";
import { trimSlashes } from "@/lib/text/trim-slashes";

// Storage in an S3 bucket (AWS, or any S3-compatible service through S3_ENDPOINT: MinIO, R2, Ceph, ...),
// selected by S3_BUCKET. Bodies stream both ways: writes go through lib-storage's Upload (one PutObject
// when the body fits in a part, else a multipart upload holding at most a few parts in memory, aborted
// when the body fails or passes maxBytes), reads stream GetObject's body. Objects are still served through
// this server's /uploads/<key> routes, so the bucket can stay private.

const ZS3Env = z.object({
  S3_BUCKET: z.string().min(1).optional(),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z.enum(["true", "false", "1", "0"]).default("false"),
  S3_PREFIX: z.string().default(""),
});

export interface S3Config {
  bucket: string;
  endpoint?: string;
  region: string;
  /** Both or neither; without them the SDK's default credential chain applies (AWS_* variables, profiles, instance roles). */
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Prepended to every key: "" or "<prefix>/". */
  prefix: string;
}

/** The S3 configuration from S3_* variables, or null when S3_BUCKET is not set (local disk). */
export function s3ConfigFromEnv(env: Record<string, string | undefined> = process.env): S3Config | null {
  // Blank variables count as unset.
  const e = ZS3Env.parse(Object.fromEntries(Object.keys(ZS3Env.shape).map((k) => [k, env[k] || undefined])));
  if (!e.S3_BUCKET) return null;
  if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY)
    throw new Error("Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (the SDK's default credentials)");
  const prefix = trimSlashes(e.S3_PREFIX);
  return {
    bucket: e.S3_BUCKET,
    ...(e.S3_ENDPOINT ? { endpoint: e.S3_ENDPOINT } : {}),
    region: e.S3_REGION,
    ...(e.S3_ACCESS_KEY_ID ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : {}),
    forcePathStyle: e.S3_FORCE_PATH_STYLE === "true" || e.S3_FORCE_PATH_STYLE === "1",
    prefix: prefix ? `${prefix}/` : "",
  };
}

/** S3 errors that mean "no such object" (GET answers NoSuchKey; HEAD, having no body, just NotFound). */
function isMissing(err: unknown): boolean {
  const name = (err as { name?: string })?.name;
  return name === "NoSuchKey" || name === "NotFound";
}

const unquote = (etag: string | undefined) => etag?.replace(/^(W\/)?"|"$/g, "");

export class S3Storage implements Storage {
  readonly client: S3Client;

  constructor(readonly config: S3Config) {
    const options: S3ClientConfig = {
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      ...(config.endpoint
        ? {
            endpoint: config.endpoint,
            // Many S3-compatible services reject the SDK's default CRC checksum headers and trailers.
            requestChecksumCalculation: "WHEN_REQUIRED",
            responseChecksumValidation: "WHEN_REQUIRED",
          }
        : {}),
      ...(config.accessKeyId ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey! } } : {}),
    };
    this.client = new S3Client(options);
  }

  private object(key: string) {
    checkKey(key);
    return { Bucket: this.config.bucket, Key: this.config.prefix + key };
  }

  async putObject(key: string, body: Readable | Buffer | string, opts: PutOptions) {
    const target = this.object(key);
    const m = meter(opts.maxBytes ?? Number.MAX_SAFE_INTEGER);
    const upload = new Upload({
      client: this.client,
      params: { ...target, Body: m.stream, ContentType: opts.contentType },
      partSize: 8 * 1024 * 1024,
      queueSize: 2,
    });
    // A failed upload stops reading, so the body is torn down with it; a failed body (or maxBytes passed)
    // fails the upload, which aborts any multipart upload: nothing is stored either way.
    const done = upload.done().catch((err: unknown) => {
      m.stream.destroy(err as Error);
      throw err;
    });
    const [piped, uploaded] = await Promise.allSettled([pipeline(bodyStream(body), m.stream), done]);
    if (piped.status === "rejected") throw piped.reason;
    if (uploaded.status === "rejected") throw uploaded.reason;
    const { size, etag } = m.result();
    return { size, etag: unquote(uploaded.value.ETag) ?? etag };
  }

  async getObjectStream(key: string): Promise<StoredObject | null> {
    try {
      const res = await this.client.send(new GetObjectCommand(this.object(key)));
      return {
        stream: res.Body as Readable,
        size: res.ContentLength ?? 0,
        contentType: res.ContentType ?? "application/octet-stream",
        etag: unquote(res.ETag) ?? `${res.ContentLength}-${res.LastModified?.getTime()}`,
        modifiedAt: res.LastModified ?? new Date(),
      };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand(this.object(key)));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  async deleteObject(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand(this.object(key)));
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
  }

  publicUrl(key: string): string {
    return uploadsUrl(key);
  }
}
