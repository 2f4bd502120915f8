import crypto from "node:crypto";
import { z } from "zod";
import type { Classification } from "@/lib/generated/prisma/client";
import type { Actor, Caller } from "@/lib/auth/actor";
import { callerActor, hasScope } from "@/lib/auth/actor";
import { pool } from "@/lib/db";
import type { Sql } from "@/lib/db/sql";
import { statementBatcher } from "@/lib/db/statement-batcher";
import { createStatementsInFlight, processPoolSize } from "@/lib/db/pool-size";
import { forbidden, unprocessable } from "@/lib/errors";
import { parseIdValue } from "@/lib/text/params";
import { retireSubjects } from "./retire-subjects";
import { retirementLimit } from "./workflow-tasks";
import { type ClassificationRow, COMPLETE_SQL, CREATE_SQL, type CreateRow, type OpenCounts } from "./create-classification-sql";
import { GOLD_STANDARD_ROLES } from "./load-workflow";
import { PROJECT_PERMISSIONS } from "@/lib/policies/project-policy";
import { scalarText } from "@/lib/text/scalar-text";
import { currentRequestId } from "@/lib/log/context";
import { metrics } from "@/lib/log/metrics";

const ZId = z.union([z.string(), z.number()]);
export const ZAnnotation = z.looseObject({ task: z.string().min(1).max(200), value: z.unknown() });
export const ZAnnotations = z.array(ZAnnotation).max(1000);
const REQUIRED_METADATA = ["started_at", "finished_at", "user_agent", "user_language", "workflow_version"] as const;
const ZMetadata = z.record(z.string(), z.unknown()).superRefine((m, ctx) => {
  for (const key of REQUIRED_METADATA) if (!(key in m)) ctx.addIssue({ code: "custom", message: `metadata.${key} is required` });
});

export const ZCreateClassification = z.strictObject({
  completed: z.boolean().optional(),
  gold_standard: z.boolean().optional(),
  annotations: ZAnnotations,
  metadata: ZMetadata,
  links: z.strictObject({
    project: ZId,
    workflow: ZId,
    subjects: z.array(ZId).min(1, "links.subjects needs at least one subject").max(100),
    user_group: ZId.nullish(),
  }),
});
export type TCreateClassification = z.infer<typeof ZCreateClassification>;

const MAX_SECONDS = 3 * 3600;

/** Time spent on a classification from its metadata: finished_at - started_at, 0 to 3 hours (0 when unreadable). */
export function secondsSpent(metadata: unknown): number {
  const m = (metadata ?? {}) as { started_at?: unknown; finished_at?: unknown };
  const start = typeof m.started_at === "string" ? Date.parse(m.started_at) : NaN;
  const end = typeof m.finished_at === "string" ? Date.parse(m.finished_at) : NaN;
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) return 0;
  return Math.min(Math.round((end - start) / 1000), MAX_SECONDS);
}

/** The Idempotency-Key header's value: 1 to 255 visible ASCII characters (a UUID in our own classifier). */
export function parseIdempotencyKey(header: string | null): string | null {
  if (header === null) return null;
  if (!/^[\x21-\x7e]{1,255}$/.test(header)) throw unprocessable("Idempotency-Key must be 1 to 255 visible ASCII characters");
  return header;
}

export interface CreatedClassification {
  classification: Classification;
  /** Who created it (for a bearer token: its grant checked in the create's own statement). */
  actor: Actor;
  /** True when an earlier POST with the same Idempotency-Key stored it (nothing was created now). */
  replayed: boolean;
}

/**
 * POST /api/classifications: validates, records seen_before, marks subjects seen, counts when complete.
 * With an idempotency key, a repeat (a client retrying after a lost answer, a browser resending what it
 * kept offline) answers the classification stored the first time, and nothing is counted twice.
 *
 * One SQL statement, shared with the creates that arrive meanwhile (see `creates` below; atomic on its
 * own, no BEGIN/COMMIT round trips; prepared once per connection): for each classification, the
 * checks (the workflow is visible to the actor and of the project, the version is the workflow's or an
 * earlier one, gold standard only by experts, the subjects are the project's) gate every write that
 * follows; then the subjects are marked seen (the ones already seen make it seen_before), the row is
 * inserted (nothing on a repeated idempotency key), and a completed classification is counted: the
 * subject-workflow rows upserted in subject order (concurrent multi-subject classifications never
 * deadlock) with retirement decided in the same upsert, the retired counters, the counters' outbox and,
 * when the workflow has an active engine configuration, the engine's inbox (a committed classification
 * always reaches the engine that runs its workflow).
 */
export async function createClassification(
  caller: Caller,
  input: TCreateClassification,
  userIp?: string,
  idempotencyKey: string | null = null,
): Promise<CreatedClassification> {
  // A bearer token's grant is checked inside the statement (one round trip less on the hot path).
  const claims = caller.claims ?? null;
  const resolved = caller.actor ?? null;
  if (resolved?.user && !hasScope(resolved, "classification")) throw forbidden("This token lacks the 'classification' scope");
  if (claims && !claims.scopes.includes("classification")) throw new Error("resolveCaller hands over only tokens with the scope");
  const userId = claims ? claims.userId : (resolved!.user?.id ?? null);
  const workflowId = parseIdValue(input.links.workflow, "links.workflow");
  const projectId = parseIdValue(input.links.project, "links.project");
  const subjectIds = [...new Set(input.links.subjects.map((s) => parseIdValue(s, "links.subjects")))].sort((a, b) => a - b);
  const completed = input.completed ?? true;
  if (!completed && userId === null) throw unprocessable("Incomplete classifications need a signed-in user");
  const userGroupId = input.links.user_group == null ? null : parseIdValue(input.links.user_group, "links.user_group");
  const named = scalarText(input.metadata.workflow_version);
  const parsed: (number | null)[] = /^\d{1,9}\.\d{1,9}$/.test(named) ? named.split(".").map(Number) : [null, null];

  // Anonymous callers share one key space: for them a key replays only the very request that stored it (the
  // key is bound to the request's content), so another anonymous client that happens to send the same key
  // with its own classification stores its own and is never answered someone else's.
  const key = idempotencyKey !== null && userId === null ? anonymousIdempotencyKey(idempotencyKey, input) : idempotencyKey;
  const r = await creates.submit({
    workflow_id: workflowId,
    project_id: projectId,
    user_id: userId,
    subject_ids: subjectIds,
    annotations: input.annotations,
    metadata: input.metadata,
    completed,
    gold: input.gold_standard ?? null,
    named,
    ip: userIp ?? null,
    key,
    user_group_id: userGroupId,
    admin: resolved ? !!resolved.user?.admin : null,
    seconds: secondsSpent(input.metadata),
    major: parsed[0],
    minor: parsed[1],
    grant_id: claims?.grantId ?? null,
    rid: currentRequestId() ?? null,
  });
  // The token's grant (when checked here) comes first: with a revoked token nothing else is answered.
  const actor = callerActor(caller, r.token_grant);
  switch (r.problem) {
    case "workflow":
      throw unprocessable(`links.workflow: no workflow ${workflowId}`);
    case "project":
      throw unprocessable("links.project must be the workflow's project");
    case "version":
      throw unprocessable(
        `metadata.workflow_version '${named}' is not a version of the workflow (its current version is '${r.current_version}')`,
      );
    case "gold":
      throw forbidden("Only the project's experts may make gold standard classifications");
    case "subjects":
      throw unprocessable("links.subjects must be subjects of the project");
  }
  if (r.id !== null) {
    metrics().classificationsCreated.inc();
    await retireDue(pool(), workflowId, r.retirement, r.open_counts);
    return { classification: fromRow(r), replayed: false, actor };
  }
  // The key was used before (or by a concurrent request, which the insert waited for).
  const earlier = await findByIdempotencyKey(pool(), userId, key!);
  if (!earlier) throw new Error("a classification with this Idempotency-Key vanished while being created");
  return { classification: sameRequest(earlier, workflowId, subjectIds), replayed: true, actor };
}

/** An anonymous caller's idempotency key as stored: the key bound to the request's content. */
export function anonymousIdempotencyKey(key: string, input: TCreateClassification): string {
  return `anon:${crypto.createHash("sha256").update(key).update("\0").update(JSON.stringify(input)).digest("base64url")}`;
}

/** One classification to create: a row of CREATE_SQL's $1 (lib/domain/create-classification-sql.ts; JSON, its keys are the statement's column names). */
interface CreateItem {
  workflow_id: number;
  project_id: number;
  /** null: anonymous. */
  user_id: number | null;
  /** Distinct, sorted. */
  subject_ids: number[];
  annotations: unknown;
  metadata: Record<string, unknown>;
  completed: boolean;
  gold: boolean | null;
  /** metadata.workflow_version as named, and its major/minor (null when it is not "major.minor"). */
  named: string;
  major: number | null;
  minor: number | null;
  ip: string | null;
  key: string | null;
  user_group_id: number | null;
  /** null: the grant's user's. */
  admin: boolean | null;
  seconds: number;
  /** The bearer token's grant to check (null: the caller is already known). */
  grant_id: string | null;
  /** The request's id (X-Request-Id), kept with the classification's engine inbox row. */
  rid: string | null;
}

const SHOW_ROLES = [...PROJECT_PERMISSIONS.show];

/**
 * Creates go through one batcher per process: alone when none is in flight, else together (see
 * statementBatcher), with a fifth of the pool's connections in flight (2 of the default 10; the others stay
 * free for the rest of the request path).
 */
const creates = statementBatcher<CreateItem, CreateRow>({
  maxInFlight: createStatementsInFlight(processPoolSize()),
  maxBatch: 64,
  keys: (c) => [...c.subject_ids.map((s) => `s${c.workflow_id}:${s}`), ...(c.key === null ? [] : [`k${c.user_id ?? 0}:${c.key}`])],
  run: async (items) => {
    const { rows } = await pool().query<CreateRow>({
      name: "create-classifications",
      text: CREATE_SQL,
      values: [JSON.stringify(items), SHOW_ROLES, GOLD_STANDARD_ROLES],
    });
    return rows;
  },
});

/** What the create statements did so far in this process (for tests and diagnosis). */
export const createBatchStats = () => creates.stats();

/**
 * Counts a classification completed after its create (PUT /api/classifications/<id>, in the caller's
 * transaction) as the create counts one: the create's statement's counting CTEs (COMPLETE_SQL), then
 * retirement as after a create. `subjectIds` are the subjects it counts toward (none when it was
 * seen_before); `metadata` is its metadata as completed.
 */
export async function countCompletedClassification(
  client: Sql,
  c: {
    id: number;
    projectId: number;
    workflowId: number;
    userId: number | null;
    subjectIds: number[];
    metadata: unknown;
    retirement: unknown;
  },
): Promise<void> {
  const { rows } = await client.query<{ open_counts: OpenCounts }>(COMPLETE_SQL, [
    c.id,
    c.projectId,
    c.workflowId,
    c.userId,
    [...new Set(c.subjectIds)].sort((a, b) => a - b),
    secondsSpent(c.metadata),
    currentRequestId() ?? null,
  ]);
  await retireDue(client, c.workflowId, c.retirement, rows[0]?.open_counts ?? null);
}

/**
 * Retires the subjects that reached the workflow's retirement count and are still open, moving the retired
 * counters by exactly as many (retireSubjects: one statement, needed only when a count reaches the limit;
 * should the process die before it, the next classification of that subject retires it).
 */
async function retireDue(client: Sql, workflowId: number, retirement: unknown, openCounts: OpenCounts): Promise<void> {
  const limit = retirementLimit(retirement);
  const due = limit === null ? [] : (openCounts ?? []).filter(([, count]) => count >= limit).map(([id]) => id);
  if (!due.length) return;
  await retireSubjects(client, workflowId, due, "classification_count");
}

function fromRow(r: ClassificationRow): Classification {
  return {
    id: r.id,
    projectId: r.project_id,
    workflowId: r.workflow_id,
    userId: r.user_id,
    userGroupId: r.user_group_id,
    subjectIds: r.subject_ids,
    annotations: r.annotations,
    metadata: r.metadata,
    completed: r.completed,
    goldStandard: r.gold_standard,
    workflowVersion: r.workflow_version,
    userIp: r.user_ip,
    idempotencyKey: r.idempotency_key,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

async function findByIdempotencyKey(client: Sql, userId: number | null, key: string): Promise<Classification | null> {
  const { rows } = await client.query<ClassificationRow>(
    `SELECT * FROM classifications WHERE coalesce(user_id, 0) = $1 AND idempotency_key = $2`,
    [userId ?? 0, key],
  );
  return rows[0] ? fromRow(rows[0]) : null;
}

/** A key names one classification: reusing it for another workflow or other subjects is a client's bug. */
function sameRequest(c: Classification, workflowId: number, subjectIds: number[]): Classification {
  const same =
    c.workflowId === workflowId && c.subjectIds.length === subjectIds.length && c.subjectIds.every((s, i) => s === subjectIds[i]);
  if (!same) throw unprocessable("Idempotency-Key was already used for a classification of other subjects or another workflow");
  return c;
}
