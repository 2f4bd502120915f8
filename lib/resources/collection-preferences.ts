import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import type { CollectionPreference, Prisma } from "@/lib/generated/prisma/client";
import { collectionReadScope } from "@/lib/policies/collection-policy";
import { collectionInclude } from "./collections";
import { preferenceResource, ZPreferences } from "./preference-resource";

const ZUpdate = z.strictObject({ preferences: ZPreferences, links: z.strictObject({}).optional() });

const isTheirs = (actor: Actor, p: { userId: number }) => actor.user?.id === p.userId;

/**
 * A user's preferences on one collection (one per user and collection). Visible only to that user (and
 * admins); anyone else gets a 404. Only that user edits them (an admin sees them but may not).
 */
const collectionPreference = preferenceResource({
  type: "collection_preferences",
  model: "collectionPreference",
  scope: "collection",
  parent: "collection",
  parentField: "collectionId",
  parentModel: "collection",
  uniqueKey: "userId_collectionId",
  parentReadScope: collectionReadScope,
  parentInclude: collectionInclude<CollectionPreference>(),
  createFields: {},
  createData: () => ({}),
  serializeExtra: () => ({}),
  can: (actor, action, row) => action === "show" || (action === "update" && isTheirs(actor, row)),
  update: {
    schema: ZUpdate,
    perform: async ({ tx }, row, input: z.infer<typeof ZUpdate>) => {
      await tx.collectionPreference.update({
        where: { id: row.id },
        data: { preferences: input.preferences as Prisma.InputJsonValue, updatedAt: new Date() },
      });
    },
  },
});

export const collectionPreferences = collectionPreference.def;
