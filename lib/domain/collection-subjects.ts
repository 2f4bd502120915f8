import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { badRequest, unprocessable } from "@/lib/errors";
import { parseIdList, parseIdValue } from "@/lib/text/params";
import { collectionReadScope } from "@/lib/policies/collection-policy";
import { projectReadScope } from "@/lib/policies/project-policy";
import type { Tx, Where } from "@/lib/db/types";

// A collection's subjects are rows of collection_subjects. They have no foreign key to subjects (the
// decision engine writes them too, and a deleted subject may leave its row behind), so every read joins
// subjects: a reader sees the existing subjects of projects it may see, nothing else. A collection lists
// its subjects newest first, as the reference platform does; its thumbnail (default_subject_src) is the
// default subject's first location, else the first listed subject's.

type Client = Tx | ReturnType<typeof db>;

/** What a collection's links and thumbnail need of its row. */
export interface CollectionRef {
  id: number;
  projectIds: number[];
  defaultSubjectId: number | null;
}

/** A collection as one actor may see it: only visible subjects and projects, newest subjects first. */
export interface CollectionView {
  subjectIds: number[];
  /** subjectIds are only the newest `perCollection` (see collectionViews' `perCollection`): the collection holds more. */
  subjectsCut: boolean;
  projectIds: number[];
  defaultSubjectId: number | null;
  defaultSubjectSrc: string | null;
}

/** The most subject ids one request may name, and the largest collection `collection_id` can list. */
export const MAX_SUBJECT_IDS_PER_REQUEST = 10_000;
// Prisma binds each id of an `in` list as a parameter, and PostgreSQL takes at most 32,767 per statement.
export const MAX_LISTABLE_COLLECTION_SUBJECTS = 30_000;
/**
 * The most subject ids the collections of one answer list in their links, shared equally among them: one
 * collection lists up to 30,000 (what /subjects?collection_id= can page through), each of a page of 100 its
 * 300 newest. A page of collections holding millions of rows answers in bounded time and size.
 */
export const MAX_LINKED_SUBJECT_IDS_PER_ANSWER = 30_000;

/** How many subject ids each of `n` collections of one answer lists. */
export const subjectIdsPerCollection = (n: number) => Math.max(1, Math.floor(MAX_LINKED_SUBJECT_IDS_PER_ANSWER / Math.max(1, n)));

const unique = <T>(values: T[]) => [...new Set(values)];

/** The URL of a subject's first location ([{mime: url}, ...]), or null. */
export function firstLocationUrl(locations: unknown): string | null {
  const first: unknown = Array.isArray(locations) ? locations[0] : undefined;
  if (!first || typeof first !== "object") return null;
  const url = Object.values(first)[0];
  return typeof url === "string" ? url : null;
}

/** The ids among `projectIds` the actor may see. */
async function visibleProjectIds(client: Client, actor: Actor, projectIds: number[]): Promise<Set<number>> {
  if (!projectIds.length) return new Set();
  const found = await client.project.findMany({
    where: { AND: [{ id: { in: projectIds } }, projectReadScope(actor)] },
    select: { id: true },
  });
  return new Set(found.map((p) => p.id));
}

/**
 * The views of a page of collections for one actor, in four queries however many collections: their
 * subject rows, their default subjects, which of the projects involved the actor may see, and the
 * locations of the subjects that give each its thumbnail. With `perCollection`, each collection's newest
 * `perCollection` subject rows only are read (by the (collection_id, created_at, subject_id) index), and
 * `subjectsCut` says where there were more; without it, all (for edits, which need the whole list).
 */
export async function collectionViews(
  collections: CollectionRef[],
  actor: Actor,
  client: Client = db(),
  perCollection: number | null = null,
): Promise<Map<number, CollectionView>> {
  const views = new Map<number, CollectionView>();
  if (!collections.length) return views;
  // LIMIT NULL is no limit; one row past the limit tells that there are more.
  const members = await client.$queryRawUnsafe<{ collection_id: number; subject_id: number; project_id: number }[]>(
    `SELECT c.id AS collection_id, m.subject_id, m.project_id FROM unnest($1::int[]) AS c(id)
     CROSS JOIN LATERAL (SELECT cs.subject_id, s.project_id, cs.created_at FROM collection_subjects cs JOIN subjects s ON s.id = cs.subject_id
       WHERE cs.collection_id = c.id ORDER BY cs.created_at DESC, cs.subject_id DESC LIMIT $2) m
     ORDER BY c.id, m.created_at DESC, m.subject_id DESC`,
    unique(collections.map((c) => c.id)),
    perCollection === null ? null : perCollection + 1,
  );
  const defaultIds = unique(collections.flatMap((c) => (c.defaultSubjectId === null ? [] : [c.defaultSubjectId])));
  const defaults = defaultIds.length
    ? await client.subject.findMany({ where: { id: { in: defaultIds } }, select: { id: true, projectId: true } })
    : [];
  const visible = await visibleProjectIds(
    client,
    actor,
    unique([...members.map((m) => m.project_id), ...defaults.map((d) => d.projectId), ...collections.flatMap((c) => c.projectIds)]),
  );

  const subjectsOf = new Map<number, number[]>();
  const rowsOf = new Map<number, number>();
  const cut = new Set<number>();
  for (const m of members) {
    const read = (rowsOf.get(m.collection_id) ?? 0) + 1;
    rowsOf.set(m.collection_id, read);
    if (perCollection !== null && read > perCollection) {
      cut.add(m.collection_id);
      continue;
    }
    if (!visible.has(m.project_id)) continue;
    const list = subjectsOf.get(m.collection_id);
    if (list) list.push(m.subject_id);
    else subjectsOf.set(m.collection_id, [m.subject_id]);
  }
  const visibleDefaults = new Set(defaults.filter((d) => visible.has(d.projectId)).map((d) => d.id));

  const thumbnailSubject = new Map<number, number>();
  for (const c of collections) {
    const subjectIds = subjectsOf.get(c.id) ?? [];
    const defaultSubjectId = c.defaultSubjectId !== null && visibleDefaults.has(c.defaultSubjectId) ? c.defaultSubjectId : null;
    const thumbnail = defaultSubjectId ?? subjectIds[0];
    if (thumbnail !== undefined) thumbnailSubject.set(c.id, thumbnail);
    views.set(c.id, {
      subjectIds,
      subjectsCut: cut.has(c.id),
      projectIds: c.projectIds.filter((id) => visible.has(id)),
      defaultSubjectId,
      defaultSubjectSrc: null,
    });
  }
  const thumbnailIds = unique([...thumbnailSubject.values()]);
  if (thumbnailIds.length) {
    const located = await client.subject.findMany({ where: { id: { in: thumbnailIds } }, select: { id: true, locations: true } });
    const urls = new Map(located.map((s) => [s.id, firstLocationUrl(s.locations)]));
    for (const [collectionId, subjectId] of thumbnailSubject) views.get(collectionId)!.defaultSubjectSrc = urls.get(subjectId) ?? null;
  }
  return views;
}

/** Subject ids from a body, each a subject the actor may see (422 naming the others, as if they did not exist). */
export async function requireVisibleSubjects(client: Client, actor: Actor, raw: unknown[], what: string): Promise<number[]> {
  const ids = unique(raw.map((v) => parseIdValue(v, what)));
  if (ids.length > MAX_SUBJECT_IDS_PER_REQUEST) throw unprocessable(`${what}: at most ${MAX_SUBJECT_IDS_PER_REQUEST} subjects per request`);
  if (!ids.length) return [];
  const found = new Set(
    (
      await client.subject.findMany({ where: { AND: [{ id: { in: ids } }, { project: projectReadScope(actor) }] }, select: { id: true } })
    ).map((s) => s.id),
  );
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length)
    throw unprocessable(`${what}: no subject with id ${missing.slice(0, 20).join(", ")}${missing.length > 20 ? ", ..." : ""}`);
  return ids;
}

/** Project ids from a body, each a project the actor may see (422 naming the others). */
export async function requireVisibleProjects(client: Client, actor: Actor, raw: unknown[], what: string): Promise<number[]> {
  const ids = unique(raw.map((v) => parseIdValue(v, what)));
  const visible = await visibleProjectIds(client, actor, ids);
  const missing = ids.filter((id) => !visible.has(id));
  if (missing.length) throw unprocessable(`${what}: no project with id ${missing.join(", ")}`);
  return ids;
}

export async function insertCollectionSubjects(tx: Tx, collectionId: number, subjectIds: number[]): Promise<void> {
  if (!subjectIds.length) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO collection_subjects (collection_id, subject_id) SELECT $1::int, id FROM unnest($2::int[]) AS id ON CONFLICT DO NOTHING`,
    collectionId,
    subjectIds,
  );
}

/** POST .../links/subjects: adds subjects the actor may see; one already in the collection is a 400, as on the reference platform. */
export async function addCollectionSubjects(tx: Tx, actor: Actor, collectionId: number, raw: unknown[]): Promise<void> {
  const ids = await requireVisibleSubjects(tx, actor, raw, "subjects");
  if (!ids.length) throw unprocessable("subjects: give at least one subject id");
  const present = await tx.collectionSubject.findMany({ where: { collectionId, subjectId: { in: ids } }, select: { subjectId: true } });
  if (present.length) throw badRequest(`Subject ${present.map((p) => p.subjectId).join(", ")} is already in the collection`);
  await insertCollectionSubjects(tx, collectionId, ids);
}

/** Removes subjects from the collection (never the subjects themselves); the default subject among them is cleared. */
export async function removeCollectionSubjects(
  tx: Tx,
  collection: { id: number; defaultSubjectId: number | null },
  subjectIds: number[],
): Promise<void> {
  if (!subjectIds.length) return;
  await tx.collectionSubject.deleteMany({ where: { collectionId: collection.id, subjectId: { in: subjectIds } } });
  if (collection.defaultSubjectId !== null && subjectIds.includes(collection.defaultSubjectId)) {
    await tx.collection.update({ where: { id: collection.id }, data: { defaultSubjectId: null } });
  }
}

/**
 * A full replacement of the subjects as the actor sees them (links.subjects on PUT): the visible subjects
 * not named are removed, the named ones added. Subjects the actor cannot see stay: it could not have
 * named them.
 */
export async function replaceCollectionSubjects(tx: Tx, actor: Actor, collection: CollectionRef, raw: unknown[]): Promise<void> {
  const wanted = await requireVisibleSubjects(tx, actor, raw, "links.subjects");
  const current = (await collectionViews([collection], actor, tx)).get(collection.id)!.subjectIds;
  const keep = new Set(wanted);
  await removeCollectionSubjects(
    tx,
    collection,
    current.filter((id) => !keep.has(id)),
  );
  await insertCollectionSubjects(tx, collection.id, wanted);
}

/** The default subject: a subject the actor may see, or null (the thumbnail then comes from the first subject). */
export async function defaultSubjectFrom(tx: Tx, actor: Actor, raw: unknown, what: string): Promise<number | null> {
  if (raw === null) return null;
  return (await requireVisibleSubjects(tx, actor, [raw], what))[0];
}

/**
 * The subjects `collection_id` filter (/api/subjects?collection_id=1,2): the subjects of those collections
 * the actor may see; a collection it cannot see contributes nothing.
 */
export async function inCollectionsWhere(value: string, actor: Actor): Promise<Where> {
  const requested = parseIdList(value, "collection_id");
  const visible = (
    await db().collection.findMany({ where: { AND: [{ id: { in: requested } }, collectionReadScope(actor)] }, select: { id: true } })
  ).map((c) => c.id);
  if (!visible.length) return { id: { in: [] } };
  const rows = await db().$queryRawUnsafe<{ subject_id: number }[]>(
    `SELECT DISTINCT subject_id FROM collection_subjects WHERE collection_id = ANY($1::int[]) LIMIT $2`,
    visible,
    MAX_LISTABLE_COLLECTION_SUBJECTS + 1,
  );
  if (rows.length > MAX_LISTABLE_COLLECTION_SUBJECTS) {
    throw unprocessable(
      `collection_id: collections of more than ${MAX_LISTABLE_COLLECTION_SUBJECTS} subjects cannot be listed through this filter`,
    );
  }
  return { id: { in: rows.map((r) => r.subject_id) } };
}
