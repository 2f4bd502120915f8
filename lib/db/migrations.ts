import fs from "node:fs";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { MigrationList, SchemaEngine } from "@prisma/schema-engine-wasm";
import { createRequire } from "node:module";

// Migrations are committed SQL under prisma/migrations/, created and applied through Prisma's
// WebAssembly schema engine driven by the pg adapter (no native engine binary). The engine records
// them in `_prisma_migrations`, so `prisma migrate deploy` against the same database agrees.

const ROOT = path.resolve(import.meta.dirname, "../..");
export const MIGRATIONS_DIR = path.join(ROOT, "prisma/migrations");
export const SCHEMA_DIR = path.join(ROOT, "prisma/schema");
const SNAPSHOT_PATH = path.join(MIGRATIONS_DIR, "schema.snapshot.prisma");
const NO_FILTER = { externalTables: [], externalEnums: [] };

function loadMigrationList(): MigrationList {
  const lockPath = path.join(MIGRATIONS_DIR, "migration_lock.toml");
  const dirs = fs.existsSync(MIGRATIONS_DIR)
    ? fs
        .readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: { path: "migration_lock.toml", content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((name) => {
      const file = path.join(MIGRATIONS_DIR, name, "migration.sql");
      return {
        path: name,
        migrationFile: {
          path: "migration.sql",
          content: fs.existsSync(file)
            ? { tag: "ok" as const, value: fs.readFileSync(file, "utf8") }
            : { tag: "error" as const, value: "missing migration.sql" },
        },
      };
    }),
  };
}

// The package is built for bundlers (it imports the .wasm file as a module), so instantiate it by hand.
let engineClass: Promise<typeof SchemaEngine> | undefined;
function loadSchemaEngine(): Promise<typeof SchemaEngine> {
  engineClass ??= (async () => {
    const glue = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const pkg = createRequire(import.meta.url).resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const wasmPath = path.join(path.dirname(pkg), "schema_engine_bg.wasm");
    const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmPath), { "./schema_engine_bg.js": glue as never });
    (glue as unknown as { __wbg_set_wasm(w: unknown): void }).__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start(): void }).__wbindgen_start();
    return (glue as unknown as { SchemaEngine: typeof SchemaEngine }).SchemaEngine;
  })();
  return engineClass;
}

/** The schema files of prisma/schema/, in name order. */
function schemaFiles(): { path: string; content: string }[] {
  return fs
    .readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith(".prisma"))
    .sort()
    .map((f) => ({ path: path.join(SCHEMA_DIR, f), content: fs.readFileSync(path.join(SCHEMA_DIR, f), "utf8") }));
}

async function withEngine<T>(databaseUrl: string, fn: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPg({ connectionString: databaseUrl }));
  const engine = await (await loadSchemaEngine()).new({ datamodels: schemaFiles().map((f) => [f.path, f.content]) }, () => {}, adapter);
  try {
    return await fn(engine);
  } finally {
    engine.free();
  }
}

/** Applies every migration not yet applied; returns the names applied now. */
export async function applyMigrations(databaseUrl: string): Promise<string[]> {
  return withEngine(databaseUrl, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList: loadMigrationList(), filters: NO_FILTER });
    return out.appliedMigrationNames;
  });
}

/** All schema files as one, the form kept in schema.snapshot.prisma. */
function snapshotOf(files: { path: string; content: string }[]): string {
  return files.map((f) => `// ---- ${path.basename(f.path)}\n${f.content.trim()}\n`).join("\n");
}

/**
 * The SQL that takes a database from the committed migrations to the current prisma/schema/ files, or "" when
 * they agree. The engine's database introspection through the pg adapter cannot read some catalog
 * columns, so the comparison is between two datamodels: the schema the committed migrations were made
 * from (kept beside them as schema.snapshot.prisma, updated with each new migration) and the current files.
 */
export async function pendingSchemaChange(databaseUrl: string): Promise<string> {
  const current = schemaFiles();
  const from = fs.existsSync(SNAPSHOT_PATH)
    ? { tag: "schemaDatamodel" as const, files: [{ path: SNAPSHOT_PATH, content: fs.readFileSync(SNAPSHOT_PATH, "utf8") }] }
    : { tag: "empty" as const };
  return withEngine(databaseUrl, async (engine) => {
    let captured = "";
    const original = process.stdout.write.bind(process.stdout);
    // The engine prints the diff script to stdout; capture it.
    process.stdout.write = ((chunk: string | Uint8Array) => {
      captured += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      return true;
    }) as typeof process.stdout.write;
    try {
      const result = await engine.diff({
        from,
        to: { tag: "schemaDatamodel", files: current },
        script: true,
        exitCode: null,
        filters: NO_FILTER,
      });
      const sql = result.stdout ?? captured;
      return /^-- This is an empty migration/.test(sql.trim()) ? "" : sql.trim();
    } finally {
      process.stdout.write = original;
    }
  });
}

/** Writes prisma/migrations/<stamp>_<name>/migration.sql for the pending change; null when there is none. */
export async function createMigration(databaseUrl: string, name: string): Promise<string | null> {
  const sql = await pendingSchemaChange(databaseUrl);
  if (!sql) return null;
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const dir = path.join(MIGRATIONS_DIR, `${stamp}_${name.replace(/\W+/g, "_")}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "migration.sql"), `${sql}\n`);
  fs.writeFileSync(SNAPSHOT_PATH, snapshotOf(schemaFiles()));
  return dir;
}
