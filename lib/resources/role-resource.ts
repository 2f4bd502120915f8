import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import type { Scope } from "@/lib/auth/scopes";
import { AppError, unprocessable } from "@/lib/errors";
import { parseIdList, parseIdValue } from "@/lib/text/params";
import type { ResourceDef } from "@/lib/http/resource-def";
import type { Tx } from "@/lib/db/types";
import { iso, userLink } from "./wire";

// Role records of a user on a record (a project, an organization, a collection): one resource shape for
// all. The holder and the record's editors see them; editors create, change and remove them; the owner's
// "owner" role is given with the record and never changed here.

export interface RoleRow {
  id: number;
  userId: number;
  roles: string[];
  createdAt: Date;
  updatedAt: Date;
  user: { id: number; displayName: string };
}

interface RoleDelegate {
  findUnique(args: object): Promise<{ id: number } | null>;
  create(args: object): Promise<{ id: number }>;
  update(args: object): Promise<unknown>;
  delete(args: object): Promise<unknown>;
}

export interface RoleResourceSpec {
  /** Wire type and table, e.g. "project_roles". */
  type: string;
  /** Prisma model, e.g. "projectRole". */
  model: string;
  writeScope: Scope;
  /** The record the roles are on: its wire name (link and filter `<parent>_id`), e.g. "project". */
  parent: string;
  /** The Prisma field of the parent's id on a role row, e.g. "projectId". */
  parentField: string;
  /** The Prisma relation from a role row to its parent, e.g. "project". */
  parentRelation: string;
  /** The name of the compound unique key (parent, user), e.g. "projectId_userId". */
  uniqueKey: string;
  assignable: readonly string[];
  /** Roles on the parent that may manage its roles. */
  editorRoles: readonly string[];
  /** The parent's id from a create's links (404 when the actor cannot see it, 403 when it cannot edit it). */
  requireEditableParent(tx: Tx, actor: Actor, id: unknown): Promise<number>;
  canEdit(actor: Actor, parentId: number, tx: Tx): Promise<boolean>;
  /** Parents whose roles anyone may read (the established platform shows a public project's team to all). */
  publicParents?: object;
}

type Row = RoleRow & Record<string, unknown>;

/** A role record on the wire: `links` names its parent (`project`, `organization`, ...) and its holder. */
export function serializeRole<P extends string>(spec: { type: string; parent: P; parentField: string }, r: RoleRow) {
  const links = { [spec.parent]: String((r as Row)[spec.parentField]), owner: userLink(r.user) };
  return {
    id: String(r.id),
    roles: r.roles,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
    href: `/${spec.type}/${r.id}`,
    links: links as Record<P, string> & { owner: ReturnType<typeof userLink> },
  };
}

export function roleResource(spec: RoleResourceSpec): ResourceDef<Row> {
  const ZRoles = z
    .array(z.enum(spec.assignable as [string, ...string[]], { message: `roles must be among ${spec.assignable.join(", ")}` }))
    .max(10);
  const ZId = z.union([z.string(), z.number()]);
  const ZCreate = z.strictObject({ roles: ZRoles.optional(), links: z.strictObject({ [spec.parent]: ZId, user: ZId }) });
  const ZUpdate = z.strictObject({ roles: ZRoles, links: z.strictObject({}).optional() });
  const delegate = (tx: Tx) => (tx as unknown as Record<string, RoleDelegate>)[spec.model];
  const parentIdOf = (row: Row) => row[spec.parentField] as number;

  return {
    type: spec.type,
    table: spec.type,
    model: spec.model,
    tokenScopes: { read: "none", write: spec.writeScope },
    queryInclude: { user: { select: { id: true, displayName: true } } },
    serialize: (r) => serializeRole(spec, r),
    linkTemplates: {
      [spec.parent]: { href: `/${spec.parent}s/{${spec.type}.${spec.parent}}`, type: `${spec.parent}s` },
      owner: { href: `/{${spec.type}.owner.href}`, type: "owners" },
    },
    filters: {
      user_id: (v) => ({ userId: { in: parseIdList(v, "user_id") } }),
      [`${spec.parent}_id`]: (v) => ({ [spec.parentField]: { in: parseIdList(v, `${spec.parent}_id`) } }),
    },
    sortable: { id: "id", created_at: "createdAt", updated_at: "updatedAt" },
    // The holder sees their own role; the parent's editors see all of its roles; anyone sees the roles on
    // a public parent, when the spec says which parents are public.
    readScope: (actor) => {
      if (actor.user?.admin) return {};
      const open = spec.publicParents ? [{ [spec.parentRelation]: spec.publicParents }] : [];
      if (!actor.user) return open.length ? { OR: open } : { id: -1 };
      return {
        OR: [
          ...open,
          { userId: actor.user.id },
          { [spec.parentRelation]: { roles: { some: { userId: actor.user.id, roles: { hasSome: [...spec.editorRoles] } } } } },
        ],
      };
    },
    can: (actor, action, row, tx) => (action === "show" ? true : spec.canEdit(actor, parentIdOf(row), tx)),
    create: {
      schema: ZCreate,
      perform: async ({ actor, tx }, input: { roles?: string[]; links: Record<string, unknown> }) => {
        const userId = parseIdValue(input.links.user as string, "links.user");
        const parentId = await spec.requireEditableParent(tx, actor, input.links[spec.parent]);
        if (!(await tx.user.findUnique({ where: { id: userId }, select: { id: true } })))
          throw unprocessable(`No user with id '${userId}'`);
        const existing = await delegate(tx).findUnique({
          where: { [spec.uniqueKey]: { [spec.parentField]: parentId, userId } },
          select: { id: true },
        });
        if (existing)
          throw new AppError(
            "bad_request",
            `That user already has a role record on this ${spec.parent} (${spec.type}/${existing.id}); edit it instead`,
          );
        return (await delegate(tx).create({ data: { [spec.parentField]: parentId, userId, roles: [...new Set(input.roles ?? [])] } })).id;
      },
    },
    update: {
      schema: ZUpdate,
      perform: async ({ tx }, row, input: { roles: string[] }) => {
        if (row.roles.includes("owner")) throw unprocessable(`The ${spec.parent} owner's roles cannot be changed`);
        await delegate(tx).update({ where: { id: row.id }, data: { roles: [...new Set(input.roles)], updatedAt: new Date() } });
      },
    },
    destroy: async ({ tx }, row) => {
      if (row.roles.includes("owner")) throw unprocessable(`The ${spec.parent} owner's role cannot be removed`);
      await delegate(tx).delete({ where: { id: row.id } });
    },
  };
}
