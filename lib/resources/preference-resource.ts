import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import type { Scope } from "@/lib/auth/scopes";
import type { Tx, Where } from "@/lib/db/types";
import { badRequest, notFound, unprocessable } from "@/lib/errors";
import type { IncludeDef, ResourceDef } from "@/lib/http/resource-def";
import { parseIdList, parseIdValue } from "@/lib/text/params";
import { userInclude } from "./users";
import { iso } from "./wire";

// A user's preferences on a record (a project, a collection): one resource shape for both, as the role
// records are one (role-resource.ts). One per user and record; visible to that user and admins (a 404 to
// anyone else); created by the user for a record they may see. What differs (the project's
// email_communication and settings, who may update what) is the spec's.

export interface PreferenceRow {
  id: number;
  userId: number;
  preferences: unknown;
  createdAt: Date;
  updatedAt: Date;
}

interface PreferenceDelegate {
  findUnique(args: object): Promise<{ id: number } | null>;
  create(args: object): Promise<{ id: number }>;
}

const ZId = z.union([z.string(), z.number()]);
export const ZPreferences = z.record(z.string(), z.unknown());

export interface PreferenceResourceSpec<
  R extends PreferenceRow,
  P extends "project" | "collection",
  E extends Record<string, unknown>,
  C extends z.ZodRawShape,
  U extends z.ZodType,
> {
  /** Wire type and table, e.g. "project_preferences". */
  type: string;
  /** Prisma model, e.g. "projectPreference". */
  model: string;
  scope: Scope;
  /** The record the preferences are on: its wire name (link and filter `<parent>_id`), e.g. "project". */
  parent: P;
  /** The Prisma field of the parent's id, e.g. "projectId". */
  parentField: keyof R & string;
  /** The Prisma model of the parent, e.g. "project". */
  parentModel: string;
  /** The name of the compound unique key (user, parent), e.g. "userId_projectId". */
  uniqueKey: string;
  /** Where on the parent: the ones this actor may see. */
  parentReadScope(actor: Actor): Where;
  parentInclude: IncludeDef<R>;
  /** Create body fields beyond `preferences` and `links`, and the columns they set. */
  createFields: C;
  createData(input: z.infer<z.ZodObject<C>>): Record<string, unknown>;
  /** The wire record's fields beyond id, preferences, times, href and links. */
  serializeExtra(row: R): E;
  update: ResourceDef<R>["update"] & { schema: U };
  /** Further list filters. */
  filters?: ResourceDef<R>["filters"];
  writeReadScope?: ResourceDef<R>["writeReadScope"];
  can: ResourceDef<R>["can"];
}

export function preferenceResource<
  R extends PreferenceRow,
  P extends "project" | "collection",
  E extends Record<string, unknown>,
  C extends z.ZodRawShape,
  U extends z.ZodType,
>(spec: PreferenceResourceSpec<R, P, E, C, U>) {
  const ZCreate = z.strictObject({
    ...spec.createFields,
    preferences: ZPreferences.optional(),
    links: z.strictObject({ [spec.parent]: ZId, user: ZId.optional() }),
  });
  const delegate = (tx: Tx, model: string) => (tx as unknown as Record<string, PreferenceDelegate>)[model];
  const serialize = (row: R) => ({
    id: String(row.id),
    ...spec.serializeExtra(row),
    preferences: row.preferences as Record<string, unknown>,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    href: `/${spec.type}/${row.id}`,
    links: { user: String(row.userId), [spec.parent]: String(row[spec.parentField]) } as { user: string } & Record<P, string>,
  });
  const def: ResourceDef<R> = {
    type: spec.type,
    table: spec.type,
    model: spec.model,
    tokenScopes: { read: spec.scope, write: spec.scope },
    serialize,
    linkTemplates: {
      user: { href: `/users/{${spec.type}.user}`, type: "users" },
      [spec.parent]: { href: `/${spec.parent}s/{${spec.type}.${spec.parent}}`, type: `${spec.parent}s` },
    },
    includes: { [spec.parent]: spec.parentInclude, user: userInclude<R & { userId: number }>() } as ResourceDef<R>["includes"],
    filters: {
      user_id: (v) => ({ userId: { in: parseIdList(v, "user_id") } }),
      [`${spec.parent}_id`]: (v: string) => ({ [spec.parentField]: { in: parseIdList(v, `${spec.parent}_id`) } }),
      ...spec.filters,
    },
    sortable: { id: "id", created_at: "createdAt", updated_at: "updatedAt" },
    defaultSort: "id",
    readScope: (actor) => {
      if (actor.user?.admin) return {};
      if (!actor.user) return { id: -1 };
      return { userId: actor.user.id };
    },
    writeReadScope: spec.writeReadScope,
    can: spec.can,
    create: {
      schema: ZCreate,
      perform: async ({ actor, tx }, body: z.infer<typeof ZCreate>) => {
        const input = body as { links: Record<string, unknown>; preferences?: Record<string, unknown> };
        const userId = actor.user!.id;
        const links = input.links;
        if (links.user !== undefined && parseIdValue(links.user, "links.user") !== userId)
          throw unprocessable(`links.user: a ${spec.parent} preference always belongs to the current user`);
        const parentId = parseIdValue(links[spec.parent], `links.${spec.parent}`);
        const visible = await (tx as unknown as Record<string, { findFirst(args: object): Promise<unknown> }>)[spec.parentModel].findFirst({
          where: { AND: [{ id: parentId }, spec.parentReadScope(actor)] },
          select: { id: true },
        });
        if (!visible) throw notFound(`Could not find ${spec.parent}s with id='${parentId}'`);
        const existing = await delegate(tx, spec.model).findUnique({
          where: { [spec.uniqueKey]: { userId, [spec.parentField]: parentId } },
          select: { id: true },
        });
        if (existing)
          throw badRequest(`You already have a preference for this ${spec.parent} (${spec.type}/${existing.id}); edit it instead`);
        const created = await delegate(tx, spec.model).create({
          data: {
            userId,
            [spec.parentField]: parentId,
            preferences: input.preferences ?? {},
            ...spec.createData(body as z.infer<z.ZodObject<C>>),
          },
        });
        return created.id;
      },
    },
    update: spec.update,
  };
  return { def, serialize };
}
