import { ANONYMOUS } from "@/lib/auth/actor";
import { requireEditableOrganization } from "@/lib/policies/require-editable-organization";
import { ASSIGNABLE_ORGANIZATION_ROLES, canOnOrganization, ORGANIZATION_PERMISSIONS } from "@/lib/policies/organization-policy";
import { roleResource, type RoleRow } from "./role-resource";

/** Roles on organizations (visible to the holder and the organization's editors); the owner's "owner" role is fixed. */
export const organizationRoles = roleResource({
  type: "organization_roles",
  model: "organizationRole",
  writeScope: "organization",
  parent: "organization",
  parentField: "organizationId",
  parentRelation: "organization",
  uniqueKey: "organizationId_userId",
  assignable: ASSIGNABLE_ORGANIZATION_ROLES,
  editorRoles: ORGANIZATION_PERMISSIONS.update,
  requireEditableParent: (tx, actor, id) => requireEditableOrganization(tx, actor, id),
  canEdit: (actor, organizationId, tx) => canOnOrganization(actor, "update", organizationId, tx),
});

export const serializeOrganizationRole = (r: RoleRow) => organizationRoles.serialize(r as never, ANONYMOUS);
