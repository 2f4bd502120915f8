import { call, type CallOptions } from "./http";
import { drainJobs } from "@/lib/jobs/worker";

// Calls to the decision engine's plain-JSON API, and running its pipeline to completion in tests.

const opts = (token: string | undefined, extra: CallOptions = {}): CallOptions => ({ token, accept: "application/json", ...extra });

export const engine = {
  get: (p: string, token?: string) => call("GET", `/engine${p}`, opts(token)),
  post: (p: string, body: unknown, token?: string, extra: CallOptions = {}) => call("POST", `/engine${p}`, opts(token, { body, ...extra })),
  put: (p: string, body: unknown, token?: string) => call("PUT", `/engine${p}`, opts(token, { body })),
};

/** Runs queued jobs until none is left (each stage enqueues the next). */
export async function drainPipeline(rounds = 8): Promise<void> {
  for (let i = 0; i < rounds; i++) await drainJobs();
}
