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
  const user = await registerUser({ login, email: `${login}@example.test`, password, display_name: `User ${login}` }, { admin: opts.admin });
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

export async function createProject(ownerId: number, data: { private?: boolean; displayName?: string; beta?: boolean; live?: boolean; approved?: boolean } = {}) {
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
