// End-to-end tests: `npm run test:e2e` (builds, then runs `playwright test`).
// The web server is the real `npm start` path (scripts/start.ts) with a throwaway embedded PostgreSQL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions as launchOptions } from "./e2e/chromium";
import { ADMIN_LOGIN, ADMIN_PASSWORD, E2E_BASE_URL, E2E_FRONT_END_ORIGIN, E2E_PORT, PUBLIC_CLIENT_ID } from "./e2e/env";

// Playwright evaluates this file in the runner and again in every worker. The runner creates the data
// directory and passes it on through the environment (workers inherit it), and removes it on exit,
// after the web server (and with it PostgreSQL) has been stopped.
if (!process.env.QUORUM_E2E_DATA_DIR) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quorum-e2e-"));
  process.env.QUORUM_E2E_DATA_DIR = dir;
  if (!process.env.KEEP_E2E_DATA) process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
}
const dataDir = process.env.QUORUM_E2E_DATA_DIR;

// The server must start its own embedded database, never one from the developer's environment.
delete process.env.DATABASE_URL;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: "list",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: E2E_BASE_URL,
    // A trace records every step's DOM and screen as the test runs, whether it fails or not: a fifth of a
    // browser test's time. CI keeps the failure's screenshot and page snapshot instead; E2E_TRACE=
    // retain-on-failure brings traces back there, E2E_TRACE=off leaves them out locally.
    trace: (process.env.E2E_TRACE as "off" | "retain-on-failure" | undefined) ?? (process.env.CI ? "off" : "retain-on-failure"),
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: { ...devices["Desktop Chrome"], launchOptions },
    },
  ],
  webServer: {
    command: "npx tsx scripts/start.ts",
    url: `${E2E_BASE_URL}/`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "pipe",
    stderr: "pipe",
    // scripts/start.ts stops Next and PostgreSQL on SIGTERM.
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: dataDir!,
      PUBLIC_CLIENT_ID,
      // The footer's "Source code" link (e2e/ui/home.spec.ts).
      SOURCE_URL: "https://example.org/quorum-source",
      ADMIN_LOGIN,
      ADMIN_PASSWORD,
      ADMIN_EMAIL: `${ADMIN_LOGIN}@example.org`,
      NODE_ENV: "production",
      // The suite registers and signs in many users from one address: abuse limits scaled up (their own
      // tests are in lib/auth/rate-limit.int.test.ts).
      RATE_LIMIT_FACTOR: "100",
      // As behind a TLS-terminating proxy on the same machine: its X-Forwarded-Proto is believed (the
      // security-headers spec checks cookies turn Secure behind HTTPS). e2e/api/client-address.spec.ts runs
      // a server of its own to check that nobody else's forwarded headers are.
      TRUST_PROXY: "loopback",
      // The established front end's stand-in on another site: trusted with cookies, and (as CORS_ORIGINS
      // are by default) a redirect URI of the public client.
      CORS_ORIGINS: E2E_FRONT_END_ORIGIN,
      // Warnings and errors only: a line per request would bury them in the run's output
      // (e2e/api/operations.spec.ts reads the request lines of a server of its own).
      LOG_LEVEL: "warn",
    },
  },
});
