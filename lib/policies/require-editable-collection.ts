import type { Actor } from "@/lib/auth/actor";
import { forbidden, notFound } from "@/lib/errors";
import { parseIdValue } from "@/lib/text/params";
import { canOnCollection, collectionReadScope } from "@/lib/policies/collection-policy";
import type { Tx } from "@/lib/db/types";

/** The id of a collection the actor may edit: 422 for a malformed id, 404 when invisible, 403 when read-only. */
export async function requireEditableCollection(tx: Tx, actor: Actor, rawId: unknown, what = "links.collection"): Promise<number> {
  const id = parseIdValue(rawId, what);
  const collection = await tx.collection.findFirst({
    where: { AND: [{ id }, collectionReadScope(actor)] },
    select: { id: true, ownerId: true, ownerGroupId: true },
  });
  if (!collection) throw notFound(`Could not find collections with id='${id}'`);
  if (!(await canOnCollection(actor, "update", collection, tx)))
    throw forbidden("Only the collection's owner and collaborators may do that");
  return id;
}
