import crypto from "node:crypto";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { issueToken } from "@/lib/auth/tokens";
import { registerUser } from "@/lib/domain/register-user";
import type { User } from "@/lib/generated/prisma/client";

// Records for tests, each uniquely named so tests share one database without interfering.

export const uid = () => crypto.randomBytes(5).toString("hex");

export async function createUser(opts: { admin?: boolean; password?: string; login?: string } = {}): Promise<User & { password: string }> {
  const login = opts.login ?? `user_${uid()}`;
  const password = opts.password ?? "correct-horse-battery";
  const user = await registerUser(
    { login, email: `${login}@example.test`, password, display_name: `User ${login}` },
    { admin: opts.admin },
  );
  return { ...user, password };
}

export async function tokenFor(user: User, scopes?: string[]): Promise<string> {
  const app = await db().oAuthApplication.findUniqueOrThrow({ where: { clientId: env().PUBLIC_CLIENT_ID } });
  return (await issueToken(app.id, app.clientId, user, scopes ?? app.scopes)).access_token;
}

/** A user with a bearer token. */
export async function signedInUser(opts: { admin?: boolean } = {}) {
  const user = await createUser(opts);
  return { user, token: await tokenFor(user) };
}

export async function createProject(
  ownerId: number,
  data: { private?: boolean; displayName?: string; beta?: boolean; live?: boolean; approved?: boolean } = {},
) {
  const owner = await db().user.findUniqueOrThrow({ where: { id: ownerId } });
  const displayName = data.displayName ?? `Project ${uid()}`;
  const project = await db().project.create({
    data: {
      ownerId,
      displayName,
      slug: `${owner.login}/${displayName.toLowerCase().replace(/\s+/g, "-")}`,
      private: data.private ?? false,
      beta: data.beta ?? false,
      live: data.live ?? false,
      approved: data.approved ?? false,
    },
  });
  await db().projectRole.create({ data: { projectId: project.id, userId: ownerId, roles: ["owner"] } });
  return project;
}

export async function grantProjectRole(projectId: number, userId: number, roles: string[]) {
  return db().projectRole.create({ data: { projectId, userId, roles } });
}

export const SIMPLE_TASKS = {
  T0: { type: "single", question: "Is there an animal?", answers: [{ label: "Yes" }, { label: "No" }] },
};

export async function createWorkflow(
  projectId: number,
  data: { retirement?: object; configuration?: object; prioritized?: boolean; tasks?: object } = {},
) {
  return db().workflow.create({
    data: {
      projectId,
      displayName: `Workflow ${uid()}`,
      tasks: (data.tasks ?? SIMPLE_TASKS) as object,
      firstTask: "T0",
      retirement: (data.retirement ?? {}) as object,
      configuration: (data.configuration ?? {}) as object,
      prioritized: data.prioritized ?? false,
    },
  });
}

/** A subject set with n subjects (metadata {n: i}), linked to the given workflows; counters kept exact. */
export async function createSubjectSet(
  projectId: number,
  n: number,
  opts: { workflowIds?: number[]; metadata?: (i: number) => object } = {},
) {
  const set = await db().subjectSet.create({ data: { projectId, displayName: `Set ${uid()}` } });
  const subjects = [];
  for (let i = 0; i < n; i++) {
    subjects.push(
      await db().subject.create({
        data: {
          projectId,
          metadata: (opts.metadata?.(i) ?? { n: String(i) }) as object,
          locations: [{ "image/png": `https://example.test/${i}.png` }],
        },
      }),
    );
  }
  if (n) {
    await db().$executeRawUnsafe(
      `INSERT INTO set_member_subjects (subject_set_id, subject_id, priority)
       SELECT $1, s.id, CASE WHEN s.metadata->>'#priority' ~ '^-?[0-9.]+$' THEN (s.metadata->>'#priority')::float8 END FROM subjects s
         WHERE s.id = ANY($2::int[])`,
      set.id,
      subjects.map((s) => s.id),
    );
  }
  await db().subjectSet.update({ where: { id: set.id }, data: { setMemberSubjectsCount: n } });
  await db().project.update({ where: { id: projectId }, data: { subjectsCount: { increment: n } } });
  for (const workflowId of opts.workflowIds ?? []) await db().workflowSubjectSet.create({ data: { workflowId, subjectSetId: set.id } });
  return { set, subjects };
}

export function classificationBody(
  workflow: { id: number; projectId: number; majorVersion: number; minorVersion: number },
  subjectIds: number[],
  extra: Record<string, unknown> = {},
) {
  return {
    classifications: {
      annotations: [{ task: "T0", value: 0 }],
      metadata: {
        started_at: new Date(Date.now() - 5000).toISOString(),
        finished_at: new Date().toISOString(),
        user_agent: "vitest",
        user_language: "en",
        workflow_version: `${workflow.majorVersion}.${workflow.minorVersion}`,
      },
      links: { project: String(workflow.projectId), workflow: String(workflow.id), subjects: subjectIds.map(String) },
      ...extra,
    },
  };
}

/** A project owned by a fresh user, with a workflow and a set of n subjects linked to it. */
export async function classifiableProject(n: number, opts: { retirement?: object; private?: boolean; configuration?: object } = {}) {
  const owner = await signedInUser();
  const project = await createProject(owner.user.id, { private: opts.private });
  const workflow = await createWorkflow(project.id, { retirement: opts.retirement, configuration: opts.configuration });
  const { set, subjects } = await createSubjectSet(project.id, n, { workflowIds: [workflow.id] });
  return { owner, project, workflow, set, subjects };
}
