import { afterAll, inject } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
process.env.DATA_DIR = inject("dataDir");
process.env.BCRYPT_COST = "4"; // hashing speed is not under test

afterAll(async () => {
  const { closeDb } = await import("@/lib/db");
  await closeDb();
});
