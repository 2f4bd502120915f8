// Collection roles as records (who sees them, how they are written), apart from the resource's includes
// (./collection-roles.ts), so a collection can include its roles without the two modules importing each other.
import { requireEditableCollection } from "@/lib/policies/require-editable-collection";
import {
  ASSIGNABLE_COLLECTION_ROLES,
  canOnCollection,
  collectionActionScope,
  COLLECTION_PERMISSIONS,
} from "@/lib/policies/collection-policy";
import { roleResource, type RoleRow } from "./role-resource";
import type { ResourceDef } from "@/lib/http/resource-def";

export type CollectionRoleRow = RoleRow & { collectionId: number } & Record<string, unknown>;

const roles = roleResource({
  type: "collection_roles",
  model: "collectionRole",
  writeScope: "collection",
  parent: "collection",
  parentField: "collectionId",
  parentRelation: "collection",
  uniqueKey: "collectionId_userId",
  assignable: ASSIGNABLE_COLLECTION_ROLES,
  editorRoles: COLLECTION_PERMISSIONS.update,
  requireEditableParent: (tx, actor, id) => requireEditableCollection(tx, actor, id),
  canEdit: async (actor, collectionId, tx) => {
    const collection = await tx.collection.findUniqueOrThrow({
      where: { id: collectionId },
      select: { id: true, ownerId: true, ownerGroupId: true },
    });
    return canOnCollection(actor, "update", collection, tx);
  },
});

/**
 * Roles on collections (collaborator, contributor, viewer; "owner" is given at creation and fixed). Visible
 * to the holder and to those who may edit the collection: its owner, the owning group's admins, its
 * collaborators, admins.
 */
export const collectionRoleRecords: ResourceDef<CollectionRoleRow> = {
  ...roles,
  readScope: (actor) => {
    if (actor.user?.admin) return {};
    if (!actor.user) return { id: -1 };
    return { OR: [{ userId: actor.user.id }, { collection: collectionActionScope(actor, "update") }] };
  },
};
