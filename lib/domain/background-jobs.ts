import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import type { BackgroundJob, Prisma } from "@/lib/generated/prisma/client";
import { enqueue } from "@/lib/db/job-queue";
import type { Tx } from "@/lib/db/types";
import { ManifestError } from "@/lib/text/manifest-rows";

// The life of a background_jobs row: created with its graphile-worker job in one transaction (pending),
// claimed by the task (running), then completed or failed. Tasks are retried after crashes and errors;
// a JobFailure is final (bad input): the job ends failed with its message and is not retried.

/** A job's status through that life (the column is text; only this module writes it). */
export type BackgroundJobStatus = "pending" | "running" | "completed" | "failed";

export class JobFailure extends Error {}

export async function startBackgroundJob(
  tx: Tx,
  actor: Actor,
  kind: string,
  projectId: number,
  params: Record<string, unknown>,
): Promise<BackgroundJob> {
  const job = await tx.backgroundJob.create({
    data: { kind, projectId, userId: actor.user?.id ?? null, params: params as Prisma.InputJsonValue },
  });
  await enqueue(tx, kind, { job_id: job.id }, { jobKey: `${kind}:${job.id}`, maxAttempts: 10 });
  return job;
}

/**
 * Starts a job of `kind` for `params` unless one is pending or running for the very same params, which is
 * answered instead (created false): a whole export per request, however often it is asked for, runs once
 * at a time. The lock serialises two such requests arriving together.
 */
export async function startOrJoinBackgroundJob(
  tx: Tx,
  actor: Actor,
  kind: string,
  projectId: number,
  params: Record<string, unknown>,
): Promise<{ job: BackgroundJob; created: boolean }> {
  await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext($1))`, `${kind}:${JSON.stringify(params)}`);
  const running = await tx.backgroundJob.findFirst({
    where: { kind, projectId, status: { in: ["pending", "running"] }, params: { equals: params as Prisma.InputJsonValue } },
    orderBy: { id: "desc" },
  });
  if (running) return { job: running, created: false };
  return { job: await startBackgroundJob(tx, actor, kind, projectId, params), created: true };
}

export function jobIdFrom(payload: unknown): number {
  const id = Number((payload as { job_id?: unknown })?.job_id);
  if (!Number.isInteger(id) || id <= 0) throw new Error(`task payload without a job_id: ${JSON.stringify(payload)}`);
  return id;
}

/**
 * Runs the work of a job unless it is already finished: marks it running, then completed with the
 * work's result path, or failed with a JobFailure's message. Other errors propagate (the task retries).
 */
export async function runBackgroundJob(jobId: number, kind: string, work: (job: BackgroundJob) => Promise<string | null>): Promise<void> {
  const job = await db().backgroundJob.findUnique({ where: { id: jobId } });
  if (!job || job.kind !== kind || job.status === "completed" || job.status === "failed") return;
  if (job.status === "pending") await db().backgroundJob.update({ where: { id: jobId }, data: { status: "running" } });
  try {
    const resultPath = await work({ ...job, status: "running" });
    await db().backgroundJob.update({ where: { id: jobId }, data: { status: "completed", resultPath, finishedAt: new Date() } });
  } catch (err) {
    if (!(err instanceof JobFailure || err instanceof ManifestError)) throw err;
    await db().backgroundJob.update({
      where: { id: jobId },
      data: { status: "failed", error: err.message.slice(0, 2000), finishedAt: new Date() },
    });
  }
}
