import { ANONYMOUS, resolveActor, type Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { PROJECT_PERMISSIONS } from "@/lib/policies/project-policy";

// Which projects' classifications a counts answer may show: projectReadScope (lib/policies/project-policy.ts)
// as SQL, so the counts queries stay one set-based statement over the rollups. A private project is shown
// to an admin and to whoever holds a role that may show it (owner, collaborator, tester, ...); to anyone
// else its classifications do not exist, exactly like those of a project id that was never created.

/** The caller as the counts statements take it: $admin, $user, $roles (the roles that see a private project). */
export interface CountsViewer {
  admin: boolean;
  userId: number | null;
  roles: string[];
}

export function countsViewer(actor: Actor): CountsViewer {
  return { admin: !!actor.user?.admin, userId: actor.user?.id ?? null, roles: [...PROJECT_PERMISSIONS.show] };
}

export const viewerParams = (v: CountsViewer) => [v.admin, v.userId, v.roles];

/**
 * SQL true when `projectId` (a column or expression) names a private project the viewer may not see.
 * `$admin`, `$user` and `$roles` are the placeholders of viewerParams' three values. A project id without
 * a project (deleted since: classifications outlive it) is not hidden, as before.
 */
export function hiddenProjectSql(projectId: string, p: { admin: string; user: string; roles: string }): string {
  return `EXISTS (SELECT 1 FROM projects hp WHERE hp.id = ${projectId} AND hp.private AND NOT ${p.admin}::boolean
            AND NOT EXISTS (SELECT 1 FROM project_roles hr WHERE hr.project_id = hp.id AND hr.user_id = ${p.user}::int AND hr.roles && ${p.roles}::text[]))`;
}

/**
 * The caller of a public counts route, for deciding what it may see. An unusable token or session is
 * nobody (anonymous), never an error: then a private project's counts answer exactly as a missing one's,
 * whatever credentials came with the request.
 */
export async function countsCaller(req: Request): Promise<Actor> {
  try {
    return await resolveActor(req);
  } catch (err) {
    if (err instanceof AppError) return ANONYMOUS;
    throw err;
  }
}
