import crypto from "node:crypto";
import { once } from "node:events";
import { Readable } from "node:stream";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { stringify } from "csv-stringify";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { S3Storage, s3ConfigFromEnv } from "./s3-storage";
import { LocalDiskStorage, storage } from "./storage";
import { S3_TEST_BUCKET, S3_TEST_PREFIX, storageBackends, useStorageBackend } from "@/test/storage-backends";

// The storage interface, the same round trips over every implementation (local disk, S3 via s3rver).

const MiB = 1024 * 1024;
const md5 = (b: Buffer) => crypto.createHash("md5").update(b).digest("hex");
const key = (name: string) => `test/${crypto.randomUUID()}/${name}`;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** `bytes` as a stream of 64 KiB chunks, optionally failing after `failAfter` bytes. */
function chunked(bytes: Buffer, failAfter = Infinity): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < bytes.length; i += 64 * 1024) {
        if (i >= failAfter) throw new Error("the client went away");
        yield bytes.subarray(i, i + 64 * 1024);
      }
    })(),
  );
}

describe.each(storageBackends)("storage: $name", (backend) => {
  useStorageBackend(backend);

  it("is the selected implementation", () => {
    expect(storage()).toBeInstanceOf(backend.name === "S3" ? S3Storage : LocalDiskStorage);
    expect(storage().publicUrl("subjects/1/a.png")).toBe("http://localhost:3000/uploads/subjects/1/a.png");
  });

  it("round-trips strings, buffers and streams byte for byte, with their content type", async () => {
    const bodies: [string, Buffer, Readable | Buffer | string][] = [
      ["string", Buffer.from("a,b\n1,é\n"), "a,b\n1,é\n"],
      ["buffer", crypto.randomBytes(3000), Buffer.alloc(0)],
      ["stream", crypto.randomBytes(300 * 1024), Buffer.alloc(0)],
      ["empty", Buffer.alloc(0), ""],
    ];
    bodies[1][2] = bodies[1][1];
    bodies[2][2] = chunked(bodies[2][1]);
    for (const [name, bytes, body] of bodies) {
      const k = key(`${name}.bin`);
      const put = await storage().putObject(k, body, { contentType: "text/csv; charset=utf-8" });
      expect(put.size, name).toBe(bytes.length);
      expect(await storage().exists(k), name).toBe(true);
      const got = (await storage().getObjectStream(k))!;
      expect(got.size, name).toBe(bytes.length);
      expect(got.contentType, name).toBe("text/csv; charset=utf-8");
      expect(got.etag, name).toBe(put.etag);
      expect(got.etag, name).toBe(md5(bytes)); // a single-part upload: the ETag is the MD5
      expect(Math.abs(got.modifiedAt.getTime() - Date.now()), name).toBeLessThan(60_000);
      expect((await readAll(got.stream)).equals(bytes), name).toBe(true);
    }
  });

  it("streams large bodies in and out (a multipart upload on S3)", async () => {
    const bytes = crypto.randomBytes(17 * MiB);
    const k = key("large.bin");
    const put = await storage().putObject(k, chunked(bytes), { contentType: "application/octet-stream", maxBytes: 20 * MiB });
    expect(put.size).toBe(bytes.length);
    const got = (await storage().getObjectStream(k))!;
    expect(got.size).toBe(bytes.length);
    expect(got.etag).toBe(put.etag);
    expect(md5(await readAll(got.stream))).toBe(md5(bytes));
  });

  it("takes a body written while the put is under way (how CSV exports are written)", async () => {
    const k = key("export.csv");
    const csv = stringify({ header: true, columns: ["id", "text"] });
    const stored = storage().putObject(k, csv, { contentType: "text/csv; charset=utf-8" });
    for (let i = 0; i < 20_000; i++) if (!csv.write([i, `row ${i}, "quoted"`])) await once(csv, "drain");
    csv.end();
    const { size } = await stored;
    const text = (await readAll((await storage().getObjectStream(k))!.stream)).toString();
    expect(Buffer.byteLength(text)).toBe(size);
    expect(text.split("\n")[0]).toBe("id,text");
    expect(text.split("\n")[20_000]).toBe('19999,"row 19999, ""quoted"""');
  });

  it("answers missing keys as absent, and deletes", async () => {
    const k = key("gone.txt");
    expect(await storage().getObjectStream(k)).toBeNull();
    expect(await storage().exists(k)).toBe(false);
    await storage().deleteObject(k); // no error
    await storage().putObject(k, "x", { contentType: "text/plain" });
    await storage().deleteObject(k);
    expect(await storage().getObjectStream(k)).toBeNull();
    expect(await storage().exists(k)).toBe(false);
  });

  it("replaces an object put twice", async () => {
    const k = key("twice.txt");
    await storage().putObject(k, "first", { contentType: "text/plain" });
    await storage().putObject(k, "second", { contentType: "application/json" });
    const got = (await storage().getObjectStream(k))!;
    expect(got.contentType).toBe("application/json");
    expect((await readAll(got.stream)).toString()).toBe("second");
  });

  it("refuses bodies past maxBytes with 413 and failed bodies with their error, storing nothing", async () => {
    const small = key("small.bin");
    const err = await storage()
      .putObject(small, chunked(crypto.randomBytes(5000)), { contentType: "image/png", maxBytes: 1000 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("too_large");
    expect(await storage().exists(small)).toBe(false);

    // Past the limit after some parts have gone up: the multipart upload is aborted.
    const large = key("large.bin");
    const err2 = await storage()
      .putObject(large, chunked(crypto.randomBytes(20 * MiB)), { contentType: "image/png", maxBytes: 18 * MiB })
      .catch((e: unknown) => e);
    expect((err2 as AppError).code).toBe("too_large");
    expect(await storage().exists(large)).toBe(false);

    const broken = key("broken.bin");
    await expect(storage().putObject(broken, chunked(crypto.randomBytes(10 * MiB), 9 * MiB), { contentType: "image/png" })).rejects.toThrow(
      "the client went away",
    );
    expect(await storage().exists(broken)).toBe(false);
  });

  it("rejects invalid keys", async () => {
    for (const bad of ["../x", "/abs", "a//b", "a/.hidden", "x.png.meta.json", ""]) {
      await expect(storage().putObject(bad, "x", { contentType: "text/plain" }), bad).rejects.toThrow(/invalid storage key/);
      await expect(storage().getObjectStream(bad), bad).rejects.toThrow(/invalid storage key/);
    }
  });
});

describe("S3 storage", () => {
  useStorageBackend(storageBackends.find((b) => b.name === "S3")!);

  it("keeps objects under S3_PREFIX in the bucket", async () => {
    const k = key("prefixed.txt");
    await storage().putObject(k, "hello", { contentType: "text/plain" });
    const s3 = storage() as S3Storage;
    const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: S3_TEST_BUCKET, Prefix: `${S3_TEST_PREFIX}/test/` }));
    expect(listed.Contents?.map((o) => o.Key)).toContain(`${S3_TEST_PREFIX}/${k}`);
  });

  it("reads its configuration from S3_* variables", () => {
    expect(s3ConfigFromEnv({})).toBeNull();
    expect(s3ConfigFromEnv({ S3_BUCKET: "" })).toBeNull();
    expect(s3ConfigFromEnv({ S3_BUCKET: "b", S3_PREFIX: "" })).toEqual({
      bucket: "b",
      region: "us-east-1",
      forcePathStyle: false,
      prefix: "",
    });
    expect(
      s3ConfigFromEnv({
        S3_BUCKET: "b",
        S3_ENDPOINT: "http://minio:9000",
        S3_REGION: "eu-west-1",
        S3_ACCESS_KEY_ID: "k",
        S3_SECRET_ACCESS_KEY: "s",
        S3_FORCE_PATH_STYLE: "true",
        S3_PREFIX: "a/b/",
      }),
    ).toEqual({
      bucket: "b",
      endpoint: "http://minio:9000",
      region: "eu-west-1",
      accessKeyId: "k",
      secretAccessKey: "s",
      forcePathStyle: true,
      prefix: "a/b/",
    });
    expect(() => s3ConfigFromEnv({ S3_BUCKET: "b", S3_ACCESS_KEY_ID: "k" })).toThrow(/both/);
    expect(() => s3ConfigFromEnv({ S3_BUCKET: "b", S3_FORCE_PATH_STYLE: "yes" })).toThrow();
  });
});
