import type { Actor, ActorUser } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { collectionViews } from "@/lib/domain/collection-subjects";
import { canOnCollection, collectionReadScope } from "@/lib/policies/collection-policy";
import { projectReadScope } from "@/lib/policies/project-policy";
import { frameMediaOf } from "./media-of";

// The volunteer's collections and favourites pages: lists of collections with a thumbnail each, and one
// collection's subjects. Everything is read as the visitor may see it, the way the API reads it: a private
// collection of someone else is not found (404), and a subject of a project the visitor may not see is
// left out of every list.

/** The most subjects a collection page shows (the newest first); the rest are counted. */
export const COLLECTION_PAGE_SUBJECTS = 200;
/** The most collections one list of the collections page shows. */
const LIST_SIZE = 60;

const OWNER = { select: { id: true, login: true, displayName: true } } as const;
const GROUP = { select: { id: true, displayName: true } } as const;

type Row = {
  id: number;
  displayName: string;
  private: boolean;
  favorite: boolean;
  projectIds: number[];
  defaultSubjectId: number | null;
  updatedAt: Date;
  owner: { id: number; login: string; displayName: string } | null;
  ownerGroup: { id: number; displayName: string } | null;
  _count: { subjects: number };
};

export const LIST_SELECT = {
  id: true,
  displayName: true,
  private: true,
  favorite: true,
  projectIds: true,
  defaultSubjectId: true,
  updatedAt: true,
  owner: OWNER,
  ownerGroup: GROUP,
  _count: { select: { subjects: true } },
} as const;

/** Collections as cards: name, owner, how many subjects, a thumbnail the visitor may see. */
export async function collectionCards(rows: Row[], actor: Actor) {
  const views = await collectionViews(rows, actor, db(), 1);
  return rows.map((r) => ({
    id: r.id,
    displayName: r.displayName,
    private: r.private,
    favorite: r.favorite,
    projectIds: views.get(r.id)?.projectIds ?? [],
    ownerName: r.owner?.displayName ?? r.ownerGroup?.displayName ?? "",
    ownerLogin: r.owner?.login ?? null,
    subjectsCount: r._count.subjects,
    thumbnail: views.get(r.id)?.defaultSubjectSrc ?? null,
    updatedAt: r.updatedAt,
  }));
}

/** The collections page: the visitor's own collections (favourites apart), and other people's public ones, newest first. */
export async function loadCollectionsPage(actor: Actor & { user: ActorUser }) {
  const [mine, others] = await Promise.all([
    db().collection.findMany({
      where: { ownerId: actor.user.id, favorite: false },
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      take: LIST_SIZE,
      select: LIST_SELECT,
    }),
    db().collection.findMany({
      where: { private: false, favorite: false, NOT: { ownerId: actor.user.id }, subjects: { some: {} } },
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      take: LIST_SIZE,
      select: LIST_SELECT,
    }),
  ]);
  return { mine: await collectionCards(mine, actor), others: await collectionCards(others, actor) };
}

/**
 * The favourites page: the subjects of the visitor's favourites collections (one per project), newest
 * first, with each subject's project; `projectId` keeps to one project's.
 */
export async function loadFavourites(actor: Actor & { user: ActorUser }, projectId?: number) {
  const collections = await db().collection.findMany({
    where: { ownerId: actor.user.id, favorite: true, ...(projectId ? { projectIds: { has: projectId } } : {}) },
    select: { id: true },
  });
  const links = collections.length
    ? await db().collectionSubject.findMany({
        where: { collectionId: { in: collections.map((c) => c.id) } },
        orderBy: [{ createdAt: "desc" }, { subjectId: "desc" }],
        take: COLLECTION_PAGE_SUBJECTS,
        select: { subjectId: true, collectionId: true },
      })
    : [];
  const subjects = await visibleSubjects(
    links.map((l) => l.subjectId),
    actor,
  );
  const collectionOf = new Map(links.map((l) => [l.subjectId, l.collectionId]));
  const listed = subjects
    .filter((s) => !projectId || s.projectId === projectId)
    .map((s) => ({ ...s, collectionId: collectionOf.get(s.id)! }));
  const projects = [...new Map(listed.map((s) => [s.projectId, { id: s.projectId, displayName: s.projectName }])).values()];
  return { subjects: listed, projects };
}

/**
 * One collection as the visitor sees it (null: there is none they may see): its owner, its newest
 * subjects the visitor may see (each with its media, metadata and project), and what the visitor may do.
 */
export async function loadCollection(id: number, actor: Actor) {
  const c = await db().collection.findFirst({
    where: { AND: [{ id }, collectionReadScope(actor)] },
    select: { ...LIST_SELECT, ownerId: true, ownerGroupId: true, description: true },
  });
  if (!c) return null;
  const links = await db().collectionSubject.findMany({
    where: { collectionId: id },
    orderBy: [{ createdAt: "desc" }, { subjectId: "desc" }],
    take: COLLECTION_PAGE_SUBJECTS,
    select: { subjectId: true },
  });
  const client = db();
  const [subjects, canEdit, canRemove] = await Promise.all([
    visibleSubjects(
      links.map((l) => l.subjectId),
      actor,
    ),
    canOnCollection(actor, "update", c, client),
    canOnCollection(actor, "remove_subjects", c, client),
  ]);
  return {
    collection: {
      id: c.id,
      displayName: c.displayName,
      description: c.description,
      private: c.private,
      favorite: c.favorite,
      ownerName: c.owner?.displayName ?? c.ownerGroup?.displayName ?? "",
      ownerLogin: c.owner?.login ?? null,
      subjectsCount: c._count.subjects,
    },
    subjects,
    canEdit,
    canRemove,
  };
}

/** The subjects of `ids` whose projects the visitor may see, in the order of `ids`, with their media and project. */
async function visibleSubjects(ids: number[], actor: Actor) {
  if (!ids.length) return [];
  const found = await db().subject.findMany({
    where: { AND: [{ id: { in: ids } }, { project: projectReadScope(actor) }] },
    select: { id: true, projectId: true, locations: true, metadata: true, project: { select: { displayName: true } } },
  });
  const byId = new Map(found.map((s) => [s.id, s]));
  return ids.flatMap((id) => {
    const s = byId.get(id);
    if (!s) return [];
    return [
      {
        id: s.id,
        projectId: s.projectId,
        projectName: s.project.displayName,
        ...frameMediaOf(s.locations),
        metadata: (s.metadata && typeof s.metadata === "object" && !Array.isArray(s.metadata) ? s.metadata : {}) as Record<string, unknown>,
      },
    ];
  });
}
