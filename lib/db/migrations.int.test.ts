import { describe, expect, inject, it } from "vitest";
import pg from "pg";
import fs from "node:fs";
import path from "node:path";
import { applyMigrations, MIGRATIONS_DIR, pendingSchemaChange } from "./migrations";

describe("migrations", () => {
  it("are recorded in _prisma_migrations, one finished row per committed directory", async () => {
    const client = new pg.Client({ connectionString: inject("databaseUrl") });
    await client.connect();
    try {
      const { rows } = await client.query(
        "SELECT migration_name, finished_at, rolled_back_at FROM _prisma_migrations ORDER BY migration_name",
      );
      const dirs = fs
        .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort();
      expect(rows.map((r) => r.migration_name)).toEqual(dirs);
      for (const r of rows) {
        expect(r.finished_at).not.toBeNull();
        expect(r.rolled_back_at).toBeNull();
      }
      for (const d of dirs) expect(fs.existsSync(path.join(MIGRATIONS_DIR, d, "migration.sql"))).toBe(true);
    } finally {
      await client.end();
    }
  });

  it("apply nothing the second time", async () => {
    expect(await applyMigrations(inject("databaseUrl"))).toEqual([]);
  });

  it("cover prisma/schema: no schema change is waiting for a migration", async () => {
    expect(await pendingSchemaChange(inject("databaseUrl"))).toBe("");
  });
});
