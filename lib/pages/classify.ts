import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { projectReadScope } from "@/lib/policies/project-policy";

/** The classify page's project (null when the visitor may not see it) with its active workflows. */
export async function loadClassifyProject(id: number, actor: Actor) {
  return db().project.findFirst({
    where: { AND: [{ id }, projectReadScope(actor)] },
    select: {
      id: true,
      displayName: true,
      configuration: true,
      primaryLanguage: true,
      availableLanguages: true,
      workflows: {
        where: { active: true },
        orderBy: { id: "asc" },
        select: { id: true, displayName: true, tasks: true, firstTask: true, majorVersion: true, minorVersion: true },
      },
    },
  });
}

/** A user's roles on a project ([] for none). */
export async function projectRolesOf(projectId: number, userId: number): Promise<string[]> {
  return (await db().projectRole.findFirst({ where: { projectId, userId }, select: { roles: true } }))?.roles ?? [];
}
