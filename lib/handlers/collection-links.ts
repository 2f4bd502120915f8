import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { apiRoute } from "@/lib/http/api-route";
import { forbidden, unprocessable } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/request";
import { parseIdList, parsePathId } from "@/lib/text/params";
import { findVisible, requireWriter, showResponse } from "@/lib/http/resource-routes";
import { canOnCollection, type CollectionAction } from "@/lib/policies/collection-policy";
import type { CollectionRow } from "@/lib/resources/collections";
import type { ResourceDef } from "@/lib/http/resource-def";
import type { Tx } from "@/lib/db/types";
import {
  addCollectionSubjects,
  defaultSubjectFrom,
  MAX_SUBJECT_IDS_PER_REQUEST,
  removeCollectionSubjects,
} from "@/lib/domain/collection-subjects";

// The writable links of a collection: POST .../links/subjects adds subjects (contributors too),
// DELETE .../links/subjects/<ids> removes them (owner and collaborators), POST .../links/default_subject
// sets the thumbnail's subject (editors; null: the first subject gives the thumbnail). Each needs its
// own permission, which the generic link routes (one "update" permission for every link) cannot express.

const ZId = z.union([z.string(), z.number()]);
const ZAddSubjects = z.strictObject({ subjects: z.union([z.array(ZId).max(MAX_SUBJECT_IDS_PER_REQUEST), ZId]) });
const ZDefaultSubject = z.strictObject({ default_subject: ZId.nullable() });
const WRITABLE = { POST: ["subjects", "default_subject"], DELETE: ["subjects"] } as const;

function linkName(raw: string | undefined, method: keyof typeof WRITABLE): string {
  const writable: readonly string[] = WRITABLE[method];
  if (!raw || !writable.includes(raw))
    throw unprocessable(
      `'${raw ?? ""}' is not a link of collections you may ${method === "POST" ? "add to" : "remove from"}; links: ${writable.join(", ")}`,
    );
  return raw;
}

/** Locks the collection, reads it as the actor may see it (404 otherwise) and checks the link's permission (403). */
async function lockCollection(
  def: ResourceDef<CollectionRow>,
  tx: Tx,
  id: number,
  actor: Actor,
  action: CollectionAction,
  refusal: string,
): Promise<CollectionRow> {
  await tx.$queryRawUnsafe(`SELECT 1 FROM collections WHERE id = $1 FOR UPDATE`, id);
  const row = await findVisible(def, id, actor, tx, true);
  if (!(await canOnCollection(actor, action, row, tx))) throw forbidden(refusal);
  return row;
}

const touch = (tx: Tx, id: number) => tx.collection.update({ where: { id }, data: { updatedAt: new Date() } });

export function collectionLinkRoutes(def: ResourceDef<CollectionRow>) {
  return {
    POST: apiRoute({ scope: def.tokenScopes.write }, async (ctx) => {
      const actor = await ctx.actor();
      requireWriter(actor);
      const link = linkName(ctx.params.link, "POST");
      const id = parsePathId(ctx.params.id, def.type);
      const body = await readJsonBody(ctx.req);
      await db().$transaction(
        async (tx) => {
          if (link === "subjects") {
            const { subjects } = ZAddSubjects.parse(body);
            await lockCollection(
              def,
              tx,
              id,
              actor,
              "add_subjects",
              "Only the collection's owner, collaborators and contributors may add subjects",
            );
            await addCollectionSubjects(tx, actor, id, Array.isArray(subjects) ? subjects : [subjects]);
          } else {
            const { default_subject } = ZDefaultSubject.parse(body);
            await lockCollection(def, tx, id, actor, "update", "Only the collection's owner and collaborators may set its default subject");
            await tx.collection.update({
              where: { id },
              data: { defaultSubjectId: await defaultSubjectFrom(tx, actor, default_subject, "default_subject") },
            });
          }
          await touch(tx, id);
        },
        { timeout: 15_000 },
      );
      return showResponse(def, await findVisible(def, id, actor), ctx);
    }),
    DELETE: apiRoute({ scope: def.tokenScopes.write }, async (ctx) => {
      const actor = await ctx.actor();
      requireWriter(actor);
      linkName(ctx.params.link, "DELETE");
      const id = parsePathId(ctx.params.id, def.type);
      const subjectIds = parseIdList(ctx.params.ids ?? "", "subjects");
      await db().$transaction(
        async (tx) => {
          const row = await lockCollection(
            def,
            tx,
            id,
            actor,
            "remove_subjects",
            "Only the collection's owner and collaborators may remove subjects",
          );
          await removeCollectionSubjects(tx, row, subjectIds);
          await touch(tx, id);
        },
        { timeout: 15_000 },
      );
      return new Response(null, { status: 204 });
    }),
  };
}
