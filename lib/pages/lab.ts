import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { CLASSIFICATIONS_EXPORT } from "@/lib/domain/export-csv";
import { projectActionScope, projectReadScope, rolesAllow } from "@/lib/policies/project-policy";

// What the lab's pages read: the projects a builder builds, and one project with what its pages edit.

/** The projects the signed-in user builds (owner or collaborator), most recently changed first. */
export async function labProjects(actor: Actor & { user: NonNullable<Actor["user"]> }) {
  // Admins see every project in the API; here, like everyone, the ones they build.
  return db().project.findMany({
    where: actor.user.admin ? { roles: { some: { userId: actor.user.id } } } : projectActionScope(actor, "update"),
    orderBy: { updatedAt: "desc" },
    take: 100,
    select: { id: true, displayName: true, private: true, _count: { select: { workflows: true } } },
  });
}

/** The project a lab page edits, with its sets and workflows, or null when the actor may not edit it. */
export async function loadEditableProject(id: number, actor: Actor) {
  if (!actor.user) return null;
  const project = await db().project.findFirst({
    where: { AND: [{ id }, projectReadScope(actor)] },
    select: {
      id: true,
      displayName: true,
      primaryLanguage: true,
      roles: { where: { userId: actor.user.id }, select: { roles: true } },
      subjectSets: { orderBy: { id: "asc" }, select: { id: true, displayName: true, setMemberSubjectsCount: true } },
      workflows: {
        orderBy: { id: "asc" },
        select: {
          id: true,
          displayName: true,
          active: true,
          tasks: true,
          firstTask: true,
          retirement: true,
          configuration: true,
          majorVersion: true,
          minorVersion: true,
          subjectSets: { select: { subjectSetId: true } },
        },
      },
    },
  });
  if (!project) return null;
  if (!actor.user.admin && !rolesAllow(project.roles[0]?.roles ?? [], "update")) return null;
  return project;
}

/**
 * What a workflow's lab pages would otherwise learn from a 404 that the browser logs: whether the workflow
 * has a decision-engine configuration yet, and whether a classifications export was ever requested.
 */
export async function workflowExtras(workflowId: number): Promise<{ engineConfigured: boolean; hasExport: boolean }> {
  const [engine, exports] = await Promise.all([
    db().engineWorkflow.count({ where: { id: workflowId } }),
    db().backgroundJob.count({ where: { kind: CLASSIFICATIONS_EXPORT, params: { equals: { workflow_id: workflowId } } } }),
  ]);
  return { engineConfigured: engine > 0, hasExport: exports > 0 };
}
