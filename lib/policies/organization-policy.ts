import type { Actor } from "@/lib/auth/actor";
import type { Action, Tx, Where } from "@/lib/resources/types";

// The one table of organization roles and what each may do. "owner" is given at creation and never
// assigned through the API; the rest are assigned through /api/organization_roles. Listed organizations
// are public; an unlisted one is seen only by holders of a role that may show it (and admins).
export const ASSIGNABLE_ORGANIZATION_ROLES = ["collaborator", "tester", "scientist", "moderator", "translator"] as const;
export type OrganizationRoleName = "owner" | (typeof ASSIGNABLE_ORGANIZATION_ROLES)[number];

export const ORGANIZATION_PERMISSIONS: Record<Action | "translate", readonly OrganizationRoleName[]> = {
  show: ["owner", "collaborator", "tester", "scientist", "moderator", "translator"],
  update: ["owner", "collaborator"],
  destroy: ["owner", "collaborator"],
  translate: ["owner", "collaborator", "translator"],
};

export type OrganizationAction = keyof typeof ORGANIZATION_PERMISSIONS;

/** Prisma where on organization_roles: the user's role rows allowing `action`. */
function holds(userId: number, action: OrganizationAction): Where {
  return { userId, roles: { hasSome: [...ORGANIZATION_PERMISSIONS[action]] } };
}

/** Prisma where on organizations: listed ones, and unlisted ones where the actor holds a role. */
export function organizationReadScope(actor: Actor): Where {
  if (actor.user?.admin) return {};
  if (!actor.user) return { listed: true };
  return { OR: [{ listed: true }, { roles: { some: holds(actor.user.id, "show") } }] };
}

export function organizationRolesAllow(roles: readonly string[], action: OrganizationAction): boolean {
  return roles.some((r) => (ORGANIZATION_PERMISSIONS[action] as readonly string[]).includes(r));
}

export async function canOnOrganization(actor: Actor, action: OrganizationAction, organizationId: number, tx: Tx): Promise<boolean> {
  if (actor.user?.admin) return true;
  if (!actor.user) return false;
  const role = await tx.organizationRole.findUnique({
    where: { organizationId_userId: { organizationId, userId: actor.user.id } },
    select: { roles: true },
  });
  return !!role && organizationRolesAllow(role.roles, action);
}

/**
 * What a record linking to organizations loads to tell, without another query, which of them an actor may
 * see: whether each is listed, and who holds a role that shows it.
 */
export const ORGANIZATION_VISIBILITY_SELECT = {
  listed: true,
  roles: { where: { roles: { hasSome: [...ORGANIZATION_PERMISSIONS.show] } }, select: { userId: true } },
} as const;

export interface OrganizationVisibility {
  listed: boolean;
  roles: { userId: number }[];
}

/** organizationReadScope, for an organization loaded with ORGANIZATION_VISIBILITY_SELECT. */
export function organizationVisibleTo(actor: Actor, organization: OrganizationVisibility): boolean {
  if (organization.listed || actor.user?.admin) return true;
  const userId = actor.user?.id;
  return userId !== undefined && organization.roles.some((r) => r.userId === userId);
}
