import type { TaskList } from "graphile-worker";
import { jobIdFrom } from "@/lib/domain/background-jobs";
import { CLASSIFICATIONS_EXPORT, ENGINE_EXPORTS, runExport, SUBJECTS_EXPORT, WORKFLOWS_EXPORT } from "@/lib/domain/export-csv";
import { runSubjectImport, SUBJECT_IMPORT } from "@/lib/domain/import-subjects";
import { ENGINE_EXTRACTS_IMPORT, runExtractsImport } from "@/lib/engine/run/import-extracts";

// Every background task, by name. Each task is a thin wrapper around a lib/domain function; tasks must be
// idempotent (graphile-worker retries with exponential backoff after a failure or a crash).
export const tasks: TaskList = {
  [SUBJECT_IMPORT]: (payload) => runSubjectImport(jobIdFrom(payload)),
  [CLASSIFICATIONS_EXPORT]: (payload) => runExport(CLASSIFICATIONS_EXPORT, jobIdFrom(payload)),
  [SUBJECTS_EXPORT]: (payload) => runExport(SUBJECTS_EXPORT, jobIdFrom(payload)),
  [WORKFLOWS_EXPORT]: (payload) => runExport(WORKFLOWS_EXPORT, jobIdFrom(payload)),
  [ENGINE_EXTRACTS_IMPORT]: (payload) => runExtractsImport(jobIdFrom(payload)),
  ...Object.fromEntries(Object.values(ENGINE_EXPORTS).map((kind) => [kind, (payload: unknown) => runExport(kind, jobIdFrom(payload))])),
};
