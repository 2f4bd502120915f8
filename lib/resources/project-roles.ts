import { z } from "zod";
import type { ProjectRole } from "@/lib/generated/prisma/client";
import { ApiError, unprocessable } from "@/lib/http/api-error";
import { requireEditableProject } from "@/lib/domain/require-editable-project";
import { parseIdList, parseIdValue } from "@/lib/http/request";
import { ASSIGNABLE_PROJECT_ROLES, canOnProject, PROJECT_PERMISSIONS } from "@/lib/policies/project-policy";
import type { ResourceDef } from "./types";
import { iso, userLink } from "./wire";

type ProjectRoleRow = ProjectRole & { user: { id: number; displayName: string } };

const ZRoles = z.array(z.enum(ASSIGNABLE_PROJECT_ROLES, { message: `roles must be among ${ASSIGNABLE_PROJECT_ROLES.join(", ")}` })).max(10);
const ZId = z.union([z.string(), z.number()]);
const ZCreateProjectRole = z.strictObject({ roles: ZRoles.optional(), links: z.strictObject({ project: ZId, user: ZId }) });
const ZUpdateProjectRole = z.strictObject({ roles: ZRoles, links: z.strictObject({}).optional() });

export function serializeProjectRole(r: ProjectRoleRow) {
  return {
    id: String(r.id),
    roles: r.roles,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
    href: `/project_roles/${r.id}`,
    links: { project: String(r.projectId), owner: userLink(r.user) },
  };
}

/** Editors of a project manage its roles; the owner's "owner" role is fixed. */
export const projectRoles: ResourceDef<ProjectRoleRow> = {
  type: "project_roles",
  table: "project_roles",
  model: "projectRole",
  writeScope: "project",
  queryInclude: { user: { select: { id: true, displayName: true } } },
  serialize: serializeProjectRole,
  linkTemplates: {
    project: { href: "/projects/{project_roles.project}", type: "projects" },
    owner: { href: "/{project_roles.owner.href}", type: "owners" },
  },
  filters: {
    user_id: (v) => ({ userId: { in: parseIdList(v, "user_id") } }),
    project_id: (v) => ({ projectId: { in: parseIdList(v, "project_id") } }),
  },
  sortable: { id: "id", created_at: "createdAt", updated_at: "updatedAt" },
  readScope: (actor) => {
    if (actor.user?.admin) return {};
    if (!actor.user) return { id: -1 };
    return { OR: [{ userId: actor.user.id }, { project: { roles: { some: { userId: actor.user.id, roles: { hasSome: [...PROJECT_PERMISSIONS.update] } } } } }] };
  },
  can: (actor, action, row, tx) => (action === "show" ? true : canOnProject(actor, "update", row.projectId, tx)),
  create: {
    schema: ZCreateProjectRole,
    perform: async ({ actor, tx }, input: z.infer<typeof ZCreateProjectRole>) => {
      const userId = parseIdValue(input.links.user, "links.user");
      const projectId = await requireEditableProject(tx, actor, input.links.project);
      if (!(await tx.user.findUnique({ where: { id: userId }, select: { id: true } }))) throw unprocessable(`No user with id '${userId}'`);
      const existing = await tx.projectRole.findUnique({ where: { projectId_userId: { projectId, userId } }, select: { id: true } });
      if (existing) throw new ApiError(400, `That user already has a role record on this project (project_roles/${existing.id}); edit it instead`);
      const role = await tx.projectRole.create({ data: { projectId, userId, roles: [...new Set(input.roles ?? [])] } });
      return role.id;
    },
  },
  update: {
    schema: ZUpdateProjectRole,
    perform: async ({ tx }, row, input: z.infer<typeof ZUpdateProjectRole>) => {
      if (row.roles.includes("owner")) throw unprocessable("The project owner's roles cannot be changed");
      await tx.projectRole.update({ where: { id: row.id }, data: { roles: [...new Set(input.roles)] } });
    },
  },
  destroy: async ({ tx }, row) => {
    if (row.roles.includes("owner")) throw unprocessable("The project owner's role cannot be removed");
    await tx.projectRole.delete({ where: { id: row.id } });
  },
};
