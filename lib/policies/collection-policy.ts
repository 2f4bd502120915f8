import type { Actor } from "@/lib/auth/actor";
import type { Tx, Where } from "@/lib/db/types";
import { activeMemberOf, isGroupAdmin } from "./user-group-policy";

// The one table of collection roles and what each may do. "owner" is given at creation to a user owner
// and never assigned through the API; the rest are assigned through /api/collection_roles. A collection
// owned by a user group has no owner role: the group's active group_admins act as its owner, and its
// active members see it when it is private.
export const ASSIGNABLE_COLLECTION_ROLES = ["collaborator", "contributor", "viewer"] as const;
export type CollectionRoleName = "owner" | (typeof ASSIGNABLE_COLLECTION_ROLES)[number];
export const COLLECTION_ROLE_NAMES: readonly CollectionRoleName[] = ["owner", ...ASSIGNABLE_COLLECTION_ROLES];

export const COLLECTION_PERMISSIONS = {
  show: ["owner", "collaborator", "contributor", "viewer"],
  update: ["owner", "collaborator"],
  destroy: ["owner", "collaborator"],
  add_subjects: ["owner", "collaborator", "contributor"],
  remove_subjects: ["owner", "collaborator"],
} as const satisfies Record<string, readonly CollectionRoleName[]>;

export type CollectionAction = keyof typeof COLLECTION_PERMISSIONS;

/** What a permission check needs to know of a collection. */
export interface CollectionOwnership {
  id: number;
  ownerId: number | null;
  ownerGroupId: number | null;
}

/** Prisma where on collection_roles: the user's role rows allowing `action`. */
function holds(userId: number, action: CollectionAction): Where {
  return { userId, roles: { hasSome: [...COLLECTION_PERMISSIONS[action]] } };
}

/** Prisma where on collections: those the user owns, or whose owning group they act for. */
function ownedBy(userId: number, groupRoles: Parameters<typeof activeMemberOf>[1]): Where[] {
  return [{ ownerId: userId }, { ownerGroup: activeMemberOf(userId, groupRoles) }];
}

/** Prisma where on collections: public ones, and private ones the actor owns, acts for, or holds a role on. */
export function collectionReadScope(actor: Actor): Where {
  if (actor.user?.admin) return {};
  if (!actor.user) return { private: false };
  const userId = actor.user.id;
  return { OR: [{ private: false }, ...ownedBy(userId, undefined), { roles: { some: holds(userId, "show") } }] };
}

/** Prisma where on collections: those where the actor may do `action` (admins: all). */
export function collectionActionScope(actor: Actor, action: CollectionAction): Where {
  if (actor.user?.admin) return {};
  if (!actor.user) return { id: -1 };
  const userId = actor.user.id;
  return { OR: [...ownedBy(userId, ["group_admin"]), { roles: { some: holds(userId, action) } }] };
}

export function collectionRolesAllow(roles: readonly string[], action: CollectionAction): boolean {
  return roles.some((r) => (COLLECTION_PERMISSIONS[action] as readonly string[]).includes(r));
}

/** May the actor do `action` to this collection (which it can see)? */
export async function canOnCollection(actor: Actor, action: CollectionAction, collection: CollectionOwnership, tx: Tx): Promise<boolean> {
  if (actor.user?.admin) return true;
  if (!actor.user) return false;
  if (collection.ownerId === actor.user.id) return true;
  if (collection.ownerGroupId !== null && (await isGroupAdmin(actor, collection.ownerGroupId, tx))) return true;
  const role = await tx.collectionRole.findUnique({
    where: { collectionId_userId: { collectionId: collection.id, userId: actor.user.id } },
    select: { roles: true },
  });
  return !!role && collectionRolesAllow(role.roles, action);
}
