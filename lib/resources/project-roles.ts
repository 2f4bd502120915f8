import { requireEditableProject } from "@/lib/policies/require-editable-project";
import { ASSIGNABLE_PROJECT_ROLES, canOnProject, PROJECT_PERMISSIONS } from "@/lib/policies/project-policy";
import { roleResource, type RoleRow, serializeRole } from "./role-resource";

/** The wire names of a project role: its type, and `links.project` naming its project. */
const WIRE = { type: "project_roles", parent: "project", parentField: "projectId" } as const;

/**
 * Roles on projects: a public project's team is visible to anyone (its Team page), a private project's to
 * the holder and the project's editors; the owner's "owner" role is fixed.
 */
export const projectRoles = roleResource({
  ...WIRE,
  model: "projectRole",
  writeScope: "project",
  parentRelation: "project",
  uniqueKey: "projectId_userId",
  assignable: ASSIGNABLE_PROJECT_ROLES,
  editorRoles: PROJECT_PERMISSIONS.update,
  requireEditableParent: (tx, actor, id) => requireEditableProject(tx, actor, id),
  canEdit: (actor, projectId, tx) => canOnProject(actor, "update", projectId, tx),
  publicParents: { private: false },
});

/** A project role as /project_roles answers it (the resource's own serializer, with `links.project` typed). */
export const serializeProjectRole = (r: RoleRow) => serializeRole(WIRE, r);
