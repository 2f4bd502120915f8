import { z } from "zod";
import type { OrganizationRole } from "@/lib/generated/prisma/client";
import { ApiError, unprocessable } from "@/lib/http/api-error";
import { requireEditableOrganization } from "@/lib/domain/require-editable-organization";
import { parseIdList, parseIdValue } from "@/lib/http/request";
import { ASSIGNABLE_ORGANIZATION_ROLES, canOnOrganization, ORGANIZATION_PERMISSIONS } from "@/lib/policies/organization-policy";
import type { ResourceDef } from "./types";
import { iso, userLink } from "./wire";

type OrganizationRoleRow = OrganizationRole & { user: { id: number; displayName: string } };

const ZRoles = z.array(z.enum(ASSIGNABLE_ORGANIZATION_ROLES, { message: `roles must be among ${ASSIGNABLE_ORGANIZATION_ROLES.join(", ")}` })).max(10);
const ZId = z.union([z.string(), z.number()]);
const ZCreateOrganizationRole = z.strictObject({ roles: ZRoles.optional(), links: z.strictObject({ organization: ZId, user: ZId }) });
const ZUpdateOrganizationRole = z.strictObject({ roles: ZRoles, links: z.strictObject({}).optional() });

export function serializeOrganizationRole(r: OrganizationRoleRow) {
  return {
    id: String(r.id),
    roles: r.roles,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
    href: `/organization_roles/${r.id}`,
    links: { organization: String(r.organizationId), owner: userLink(r.user) },
  };
}

/** Editors of an organization manage its roles; the owner's "owner" role is fixed. */
export const organizationRoles: ResourceDef<OrganizationRoleRow> = {
  type: "organization_roles",
  table: "organization_roles",
  model: "organizationRole",
  writeScope: "organization",
  queryInclude: { user: { select: { id: true, displayName: true } } },
  serialize: serializeOrganizationRole,
  linkTemplates: {
    organization: { href: "/organizations/{organization_roles.organization}", type: "organizations" },
    owner: { href: "/{organization_roles.owner.href}", type: "owners" },
  },
  filters: {
    user_id: (v) => ({ userId: { in: parseIdList(v, "user_id") } }),
    organization_id: (v) => ({ organizationId: { in: parseIdList(v, "organization_id") } }),
  },
  sortable: { id: "id", created_at: "createdAt", updated_at: "updatedAt" },
  // The holder sees their own role; the organization's editors see all of its roles.
  readScope: (actor) => {
    if (actor.user?.admin) return {};
    if (!actor.user) return { id: -1 };
    return { OR: [{ userId: actor.user.id }, { organization: { roles: { some: { userId: actor.user.id, roles: { hasSome: [...ORGANIZATION_PERMISSIONS.update] } } } } }] };
  },
  can: (actor, action, row, tx) => (action === "show" ? true : canOnOrganization(actor, "update", row.organizationId, tx)),
  create: {
    schema: ZCreateOrganizationRole,
    perform: async ({ actor, tx }, input: z.infer<typeof ZCreateOrganizationRole>) => {
      const userId = parseIdValue(input.links.user, "links.user");
      const organizationId = await requireEditableOrganization(tx, actor, input.links.organization);
      if (!(await tx.user.findUnique({ where: { id: userId }, select: { id: true } }))) throw unprocessable(`No user with id '${userId}'`);
      const existing = await tx.organizationRole.findUnique({ where: { organizationId_userId: { organizationId, userId } }, select: { id: true } });
      if (existing) throw new ApiError(400, `Roles have already been set for this user on this organization (organization_roles/${existing.id}); edit them instead`);
      const role = await tx.organizationRole.create({ data: { organizationId, userId, roles: [...new Set(input.roles ?? [])] } });
      return role.id;
    },
  },
  update: {
    schema: ZUpdateOrganizationRole,
    perform: async ({ tx }, row, input: z.infer<typeof ZUpdateOrganizationRole>) => {
      if (row.roles.includes("owner")) throw unprocessable("The organization owner's roles cannot be changed");
      await tx.organizationRole.update({ where: { id: row.id }, data: { roles: [...new Set(input.roles)], updatedAt: new Date() } });
    },
  },
  destroy: async ({ tx }, row) => {
    if (row.roles.includes("owner")) throw unprocessable("The organization owner's role cannot be removed");
    await tx.organizationRole.delete({ where: { id: row.id } });
  },
};
