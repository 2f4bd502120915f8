import type { TaskList } from "graphile-worker";

// Every background task, by name. Each task is a thin wrapper around a lib/domain function; tasks must be
// idempotent (graphile-worker retries with exponential backoff after a failure or a crash).
export const tasks: TaskList = {};
