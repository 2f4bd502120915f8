import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { prepareDatabase } from "./with-database";

async function query(sql: string) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("npm start's database preparation", () => {
  it("starts the embedded database in DATA_DIR, migrates, bootstraps, and reuses the data on a second start", async () => {
    const saved = {
      url: process.env.DATABASE_URL,
      dir: process.env.DATA_DIR,
      login: process.env.ADMIN_LOGIN,
      pw: process.env.ADMIN_PASSWORD,
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quorum-start-"));
    try {
      delete process.env.DATABASE_URL;
      process.env.DATA_DIR = dir;
      process.env.ADMIN_LOGIN = "boss";
      process.env.ADMIN_PASSWORD = "boss-password-1";
      const { env } = await import("@/lib/env");
      const publicClientId = env().PUBLIC_CLIENT_ID;
      let stop = await prepareDatabase(() => {});
      expect(fs.existsSync(path.join(dir, "postgres", "PG_VERSION"))).toBe(true);
      expect(await query("SELECT login, admin FROM users")).toEqual([{ login: "boss", admin: true }]);
      expect(await query("SELECT client_id, first_party FROM oauth_applications")).toEqual([
        { client_id: publicClientId, first_party: true },
      ]);
      await query("INSERT INTO organizations (owner_id, display_name, updated_at) SELECT id, 'kept', now() FROM users");
      await stop();

      delete process.env.DATABASE_URL;
      stop = await prepareDatabase(() => {});
      expect(await query("SELECT display_name FROM organizations")).toEqual([{ display_name: "kept" }]);
      expect(await query("SELECT count(*)::int AS n FROM users")).toEqual([{ n: 1 }]);
      await stop();
    } finally {
      process.env.DATABASE_URL = saved.url;
      process.env.DATA_DIR = saved.dir;
      if (saved.login === undefined) delete process.env.ADMIN_LOGIN;
      if (saved.pw === undefined) delete process.env.ADMIN_PASSWORD;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
