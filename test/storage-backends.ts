import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { afterAll, beforeAll } from "vitest";

// The storage implementations tests run over (describe.each): local disk (the default) and S3, against
// s3rver (a fake S3 server in this process, 127.0.0.1, random port, temp directory) selected by S3_*
// variables for the duration of the describe block.

export interface StorageBackend {
  name: string;
  /** Starts the backend and selects it; answers how to stop it and restore the environment. */
  start(): Promise<() => Promise<void>>;
}

export const S3_TEST_BUCKET = "quorum-test";
export const S3_TEST_PREFIX = "test-prefix";

async function startS3(): Promise<() => Promise<void>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quorum-s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, directory: dir, silent: true });
  const { port } = await server.run();
  const vars: Record<string, string> = {
    S3_BUCKET: S3_TEST_BUCKET,
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    S3_FORCE_PATH_STYLE: "true",
    S3_PREFIX: `/${S3_TEST_PREFIX}/`,
  };
  const client = new S3Client({
    endpoint: vars.S3_ENDPOINT,
    region: vars.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
  await client.send(new CreateBucketCommand({ Bucket: S3_TEST_BUCKET }));
  client.destroy();
  const restore = setEnv(vars);
  return async () => {
    restore();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

/** Sets (or, for undefined, unsets) environment variables; answers how to put them back. */
function setEnv(vars: Record<string, string | undefined>): () => void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  apply(vars);
  return () => apply(saved);
}

export const storageBackends: StorageBackend[] = [
  {
    name: "local disk",
    start: async () => {
      const restore = setEnv({ S3_BUCKET: undefined });
      return async () => restore();
    },
  },
  { name: "S3", start: startS3 },
];

/** Selects the backend for the enclosing describe block. */
export function useStorageBackend(backend: StorageBackend): void {
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    stop = await backend.start();
  });
  afterAll(() => stop?.());
}
