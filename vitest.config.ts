import path from "node:path";
import { defineConfig } from "vitest/config";

// Test files that set process.env, mock modules or stub globals run each in a fresh module graph; the rest
// share one per worker (isolate: false), which saves loading the same server modules 120 times (the unit
// suite takes about 60 % of the time). A file that starts to change global state belongs in ISOLATED.
const ISOLATED = [
  "lib/backup/backup.int.test.ts",
  "lib/backup/pg-dump.int.test.ts",
  "lib/auth/cross-site-session.int.test.ts",
  "lib/auth/public-client-redirects.int.test.ts",
  "lib/auth/rate-limit.int.test.ts",
  "lib/db/index.int.test.ts",
  "lib/db/replica.int.test.ts",
  "lib/domain/accounts.int.test.ts",
  "lib/domain/subject-uploads.int.test.ts",
  "lib/engine/run/crash.int.test.ts",
  "lib/engine/run/external-calls.int.test.ts",
  "lib/engine/run/import-extracts.int.test.ts",
  "lib/engine/run/inngest-transport.int.test.ts",
  "lib/engine/run/pipeline.int.test.ts",
  "lib/http/cors-vary.test.ts",
  "lib/http/hostile-input.int.test.ts",
  "lib/http/token-scopes.int.test.ts",
  "lib/net/outbound-fetch.test.ts",
  "lib/ops/health.int.test.ts",
  "lib/ops/request-context.int.test.ts",
  "lib/resources/aggregations.int.test.ts",
  "scripts/with-database.int.test.ts",
];

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    projects: [
      { extends: true, test: { name: "isolated", include: ISOLATED } },
      {
        extends: true,
        test: {
          name: "shared",
          include: ["{lib,app,scripts,test,inngest}/**/*.test.ts", "components/**/*.test.{ts,tsx}"],
          exclude: ISOLATED,
          isolate: false,
        },
      },
    ],
  },
});
