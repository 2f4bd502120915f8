import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import type { CollectionPreference, Prisma } from "@/lib/generated/prisma/client";
import { badRequest, notFound, unprocessable } from "@/lib/errors";
import { parseIdList, parseIdValue } from "@/lib/text/params";
import { collectionReadScope } from "@/lib/policies/collection-policy";
import { collectionInclude } from "./collections";
import type { ResourceDef } from "@/lib/http/resource-def";
import { userInclude } from "./users";
import { iso } from "./wire";

const ZId = z.union([z.string(), z.number()]);
const ZPreferences = z.record(z.string(), z.unknown());
const ZCreate = z.strictObject({ preferences: ZPreferences.optional(), links: z.strictObject({ collection: ZId, user: ZId.optional() }) });
const ZUpdate = z.strictObject({ preferences: ZPreferences, links: z.strictObject({}).optional() });

export function serializeCollectionPreference(p: CollectionPreference) {
  return {
    id: String(p.id),
    preferences: p.preferences,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
    href: `/collection_preferences/${p.id}`,
    links: { user: String(p.userId), collection: String(p.collectionId) },
  };
}

const isTheirs = (actor: Actor, p: { userId: number }) => actor.user?.id === p.userId;

/**
 * A user's preferences on one collection (one per user and collection). Visible only to that user (and
 * admins); anyone else gets a 404. Only that user edits them (an admin sees them but may not).
 */
export const collectionPreferences: ResourceDef<CollectionPreference> = {
  type: "collection_preferences",
  table: "collection_preferences",
  model: "collectionPreference",
  tokenScopes: { read: "collection", write: "collection" },
  serialize: serializeCollectionPreference,
  linkTemplates: {
    user: { href: "/users/{collection_preferences.user}", type: "users" },
    collection: { href: "/collections/{collection_preferences.collection}", type: "collections" },
  },
  includes: {
    collection: collectionInclude(),
    user: userInclude(),
  },
  filters: {
    user_id: (v) => ({ userId: { in: parseIdList(v, "user_id") } }),
    collection_id: (v) => ({ collectionId: { in: parseIdList(v, "collection_id") } }),
  },
  sortable: { id: "id", created_at: "createdAt", updated_at: "updatedAt" },
  defaultSort: "id",
  readScope: (actor) => {
    if (actor.user?.admin) return {};
    if (!actor.user) return { id: -1 };
    return { userId: actor.user.id };
  },
  can: (actor, action, row) => action === "show" || (action === "update" && isTheirs(actor, row)),
  create: {
    schema: ZCreate,
    perform: async ({ actor, tx }, input: z.infer<typeof ZCreate>) => {
      const userId = actor.user!.id;
      if (input.links.user !== undefined && parseIdValue(input.links.user, "links.user") !== userId)
        throw unprocessable("links.user: a collection preference always belongs to the current user");
      const collectionId = parseIdValue(input.links.collection, "links.collection");
      if (!(await tx.collection.findFirst({ where: { AND: [{ id: collectionId }, collectionReadScope(actor)] }, select: { id: true } }))) {
        throw notFound(`Could not find collections with id='${collectionId}'`);
      }
      const existing = await tx.collectionPreference.findUnique({
        where: { userId_collectionId: { userId, collectionId } },
        select: { id: true },
      });
      if (existing)
        throw badRequest(`You already have a preference for this collection (collection_preferences/${existing.id}); edit it instead`);
      const created = await tx.collectionPreference.create({
        data: { userId, collectionId, preferences: (input.preferences ?? {}) as Prisma.InputJsonValue },
      });
      return created.id;
    },
  },
  update: {
    schema: ZUpdate,
    perform: async ({ tx }, row, input: z.infer<typeof ZUpdate>) => {
      await tx.collectionPreference.update({
        where: { id: row.id },
        data: { preferences: input.preferences as Prisma.InputJsonValue, updatedAt: new Date() },
      });
    },
  },
};
