import type { TaskList } from "graphile-worker";
import { jobIdFrom } from "@/lib/domain/background-jobs";
import { runSubjectImport, SUBJECT_IMPORT } from "@/lib/domain/import-subjects";

// Every background task, by name. Each task is a thin wrapper around a lib/domain function; tasks must be
// idempotent (graphile-worker retries with exponential backoff after a failure or a crash).
export const tasks: TaskList = {
  [SUBJECT_IMPORT]: (payload) => runSubjectImport(jobIdFrom(payload)),
};
