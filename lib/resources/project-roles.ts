import { requireEditableProject } from "@/lib/policies/require-editable-project";
import { ANONYMOUS } from "@/lib/auth/actor";
import { ASSIGNABLE_PROJECT_ROLES, canOnProject, PROJECT_PERMISSIONS } from "@/lib/policies/project-policy";
import { roleResource, type RoleRow } from "./role-resource";

/**
 * Roles on projects: a public project's team is visible to anyone (its Team page), a private project's to
 * the holder and the project's editors; the owner's "owner" role is fixed.
 */
export const projectRoles = roleResource({
  type: "project_roles",
  model: "projectRole",
  writeScope: "project",
  parent: "project",
  parentField: "projectId",
  parentRelation: "project",
  uniqueKey: "projectId_userId",
  assignable: ASSIGNABLE_PROJECT_ROLES,
  editorRoles: PROJECT_PERMISSIONS.update,
  requireEditableParent: (tx, actor, id) => requireEditableProject(tx, actor, id),
  canEdit: (actor, projectId, tx) => canOnProject(actor, "update", projectId, tx),
  publicParents: { private: false },
});

export const serializeProjectRole = (r: RoleRow) => projectRoles.serialize(r as never, ANONYMOUS);
