import type { Actor } from "@/lib/auth/actor";
import type { Action } from "@/lib/policies/action";
import type { Tx, Where } from "@/lib/db/types";

// The one table of project roles and what each may do. "owner" is given at creation and never assigned
// through the API; the rest are assigned through /api/project_roles.
export const ASSIGNABLE_PROJECT_ROLES = ["collaborator", "tester", "scientist", "moderator", "translator", "expert"] as const;
export type ProjectRoleName = "owner" | (typeof ASSIGNABLE_PROJECT_ROLES)[number];

export const PROJECT_PERMISSIONS: Record<Action | "translate", readonly ProjectRoleName[]> = {
  show: ["owner", "collaborator", "tester", "scientist", "moderator", "translator", "expert"],
  update: ["owner", "collaborator"],
  destroy: ["owner", "collaborator"],
  translate: ["owner", "collaborator", "translator"],
};

/** Projects the actor can see: public ones, and private ones where it holds a role that may show. */
export function projectReadScope(actor: Actor): Where {
  if (actor.user?.admin) return {};
  if (!actor.user) return { private: false };
  return { OR: [{ private: false }, { roles: { some: { userId: actor.user.id, roles: { hasSome: [...PROJECT_PERMISSIONS.show] } } } }] };
}

/** Projects where the actor may do `action` (admins: all). */
export function projectActionScope(actor: Actor, action: keyof typeof PROJECT_PERMISSIONS): Where {
  if (actor.user?.admin) return {};
  if (!actor.user) return { id: -1 };
  return { roles: { some: { userId: actor.user.id, roles: { hasSome: [...PROJECT_PERMISSIONS[action]] } } } };
}

export function rolesAllow(roles: readonly string[], action: keyof typeof PROJECT_PERMISSIONS): boolean {
  return roles.some((r) => (PROJECT_PERMISSIONS[action] as readonly string[]).includes(r));
}

export async function canOnProject(actor: Actor, action: keyof typeof PROJECT_PERMISSIONS, projectId: number, tx: Tx): Promise<boolean> {
  if (actor.user?.admin) return true;
  if (!actor.user) return false;
  const role = await tx.projectRole.findUnique({
    where: { projectId_userId: { projectId, userId: actor.user.id } },
    select: { roles: true },
  });
  return !!role && rolesAllow(role.roles, action);
}
