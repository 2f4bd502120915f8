import { call, type CallOptions } from "./http";
import { drainJobs } from "@/lib/jobs/worker";

// Calls to the decision engine's plain-JSON API, and running its pipeline to completion in tests.

const opts = (token: string | undefined, extra: CallOptions = {}): CallOptions => ({ token, accept: "application/json", ...extra });

export const engine = {
  get: (p: string, token?: string) => call("GET", `/engine${p}`, opts(token)),
  post: (p: string, body: unknown, token?: string, extra: CallOptions = {}) => call("POST", `/engine${p}`, opts(token, { body, ...extra })),
  put: (p: string, body: unknown, token?: string) => call("PUT", `/engine${p}`, opts(token, { body })),
  delete: (p: string, token?: string) => call("DELETE", `/engine${p}`, opts(token)),
};

/** Runs queued jobs until none is left (each stage enqueues the next). */
export async function drainPipeline(rounds = 8): Promise<void> {
  for (let i = 0; i < rounds; i++) await drainJobs();
}

/**
 * Drains until check passes: other test files drain the same queue at the same time, and one of them may
 * be holding a job this test waits for.
 */
export async function drainUntil(check: () => Promise<boolean>, rounds = 30): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await drainJobs();
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the pipeline never reached the expected state");
}
