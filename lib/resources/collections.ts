import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import type { Collection, Prisma } from "@/lib/generated/prisma/client";
import { badRequest, forbidden, unprocessable } from "@/lib/errors";
import { parseBooleanParam, parseCountParam, parseIdList, parseIdValue } from "@/lib/text/params";
import {
  collectionViews,
  defaultSubjectFrom,
  insertCollectionSubjects,
  MAX_SUBJECT_IDS_PER_REQUEST,
  replaceCollectionSubjects,
  requireVisibleProjects,
  requireVisibleSubjects,
  subjectIdsPerCollection,
  type CollectionView,
} from "@/lib/domain/collection-subjects";
import { canOnCollection, collectionReadScope, COLLECTION_ROLE_NAMES } from "@/lib/policies/collection-policy";
import { projectReadScope } from "@/lib/policies/project-policy";
import { activeMemberOf, isGroupAdmin, userGroupReadScope } from "@/lib/policies/user-group-policy";
import { collectionRoleRecords } from "./collection-role-records";
import { projects } from "./projects";
import { subjects } from "./subjects";
import type { IncludeDef, LoadedLinked, ResourceDef, Truncations } from "@/lib/http/resource-def";
import type { Tx, Where } from "@/lib/db/types";
import { users } from "./users";
import { idStr, iso, userLink } from "./wire";
import { containsIgnoringCase, equalsIgnoringCase } from "@/lib/db/like";

// Collections (/api/collections): user-curated sets of subjects, owned by a user or a user group. Public
// ones are seen by everyone; private ones by their owner (or the owning group's active members), holders
// of a collection role, and admins. A user's favourites for a project are its collection with
// favorite = true whose projects include that project: at most one per owner and project.

export type CollectionRow = Collection & {
  owner: { id: number; login: string; displayName: string } | null;
  ownerGroup: { id: number; name: string; displayName: string } | null;
  roles: { id: number }[];
};

type Owner = { kind: "user" | "group"; id: number; name: string };

const ZId = z.union([z.string(), z.number()]);
const ZOwner = z.union([
  ZId,
  z.strictObject({
    id: ZId,
    type: z.enum(["users", "user_groups"], { message: "links.owner.type must be users or user_groups" }),
    display_name: z.string().optional(),
    href: z.string().optional(),
  }),
]);
const ZSubjectIds = z.array(ZId).max(MAX_SUBJECT_IDS_PER_REQUEST);
const collectionFields = {
  name: z.string().trim().min(1, "name can't be blank").max(255),
  display_name: z.string().trim().min(1, "display_name can't be blank").max(255),
  private: z.boolean(),
  description: z.string().max(10_000),
};
export const ZCreateCollection = z
  .strictObject({
    ...collectionFields,
    favorite: z.boolean(),
    links: z
      .strictObject({
        owner: ZOwner,
        project: ZId,
        projects: z.array(ZId).max(100),
        subjects: ZSubjectIds,
        default_subject: ZId.nullable(),
      })
      .partial(),
  })
  .partial()
  .required({ display_name: true });
export const ZUpdateCollection = z
  .strictObject({ ...collectionFields, links: z.strictObject({ subjects: ZSubjectIds, default_subject: ZId.nullable() }).partial() })
  .partial();

/** The reference platform's default name: display_name underscored and lower-cased ("My Fav Things" → "my_fav_things"). */
export function defaultCollectionName(displayName: string): string {
  return displayName
    .trim()
    .replace(/([a-z\d])([A-Z])/g, "$1_$2")
    .replace(/[\s-]+/g, "_")
    .toLowerCase();
}

/** `<owner login or group name>/<name with dashes>`, lower-cased and URL-safe. */
export function collectionSlug(ownerName: string, name: string): string {
  const part = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\//g, "-")
    .replace(/[^\w\s-]/g, "")
    .trim()
    .replace(/[\s_-]+/g, "-");
  return `${ownerName.toLowerCase()}/${part || "collection"}`;
}

function ownerOf(c: CollectionRow): Owner | null {
  if (c.owner) return { kind: "user", id: c.owner.id, name: c.owner.login };
  if (c.ownerGroup) return { kind: "group", id: c.ownerGroup.id, name: c.ownerGroup.name };
  return null;
}

const ownerWhere = (owner: Owner): Where => (owner.kind === "user" ? { ownerId: owner.id } : { ownerGroupId: owner.id });

function ownerLink(c: CollectionRow) {
  if (c.owner) return userLink(c.owner);
  if (c.ownerGroup)
    return {
      id: String(c.ownerGroup.id),
      display_name: c.ownerGroup.displayName,
      type: "user_groups",
      href: `/user_groups/${c.ownerGroup.id}`,
    };
  return null;
}

/** The record without what depends on which subjects and projects the reader may see (see withView). */
function serializeCollection(c: CollectionRow) {
  return {
    id: String(c.id),
    name: c.name,
    display_name: c.displayName,
    slug: c.slug,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
    href: `/collections/${c.id}`,
    favorite: c.favorite,
    private: c.private,
    description: c.description,
    links: { owner: ownerLink(c), collection_roles: c.roles.map((r) => String(r.id)) },
  };
}

const SUBJECTS_HREF = "/subjects?collection_id={collections.id}";

/**
 * A collection on the wire: its record with the subjects, projects and default subject this reader may
 * see. Its links.subjects lists the newest subjects only when the answer's share of
 * MAX_LINKED_SUBJECT_IDS_PER_ANSWER is smaller than the collection: noted in meta.truncated.
 */
export function withView(
  record: ReturnType<typeof serializeCollection>,
  view: CollectionView,
  truncations: Truncations | undefined,
  perCollection: number,
) {
  if (view.subjectsCut) truncations?.linkList("collections.subjects", Number(record.id), perCollection, SUBJECTS_HREF);
  return {
    ...record,
    default_subject_src: view.defaultSubjectSrc,
    links: {
      ...record.links,
      subjects: view.subjectIds.map(String),
      projects: view.projectIds.map(String),
      default_subject: idStr(view.defaultSubjectId),
    },
  };
}

/** Complete records of collections as this actor sees them (for other resources' includes). */
export async function presentCollections(rows: CollectionRow[], actor: Actor, truncations?: Truncations) {
  const perCollection = subjectIdsPerCollection(rows.length);
  const views = await collectionViews(rows, actor, db(), perCollection);
  return rows.map((r) => withView(serializeCollection(r), views.get(r.id)!, truncations, perCollection));
}

/**
 * present() is called for every record of an envelope in one synchronous pass, so the rows gathered until
 * the next microtask are one page: their views load together in a fixed number of queries instead of
 * once per record.
 */
type PageViews = { views: Map<number, CollectionView>; perCollection: number };

function pageViews() {
  let batch: { actor: Actor; rows: CollectionRow[]; views: Promise<PageViews> } | null = null;
  return (row: CollectionRow, actor: Actor): Promise<PageViews> => {
    if (!batch || batch.actor !== actor) {
      const next: { actor: Actor; rows: CollectionRow[]; views: Promise<PageViews> } = {
        actor,
        rows: [],
        views: Promise.resolve({ views: new Map(), perCollection: 0 }),
      };
      next.views = Promise.resolve().then(async () => {
        if (batch === next) batch = null;
        // The page's share of the subject ids its links may list (lib/domain/collection-subjects.ts).
        const perCollection = subjectIdsPerCollection(next.rows.length);
        return { views: await collectionViews(next.rows, actor, db(), perCollection), perCollection };
      });
      batch = next;
    }
    batch.rows.push(row);
    return batch.views;
  };
}
const viewsOfPage = pageViews();

/** The owner a create names: the current user by default, or a user group it administers (admins: anyone). */
async function ownerFor(tx: Tx, actor: Actor, raw: z.infer<typeof ZOwner> | undefined): Promise<Owner> {
  const me = actor.user!;
  if (raw === undefined) return { kind: "user", id: me.id, name: me.login };
  const { id: rawId, type } = typeof raw === "object" ? raw : { id: raw, type: "users" as const };
  const id = parseIdValue(rawId, "links.owner.id");
  const refused = () => forbidden("links.owner: you may create collections only for yourself or for a user group you administer");
  if (type === "users") {
    if (id === me.id) return { kind: "user", id, name: me.login };
    if (!me.admin) throw refused();
    const user = await tx.user.findUnique({ where: { id }, select: { login: true } });
    if (!user) throw unprocessable(`links.owner: no user with id ${id}`);
    return { kind: "user", id, name: user.login };
  }
  const group = await tx.userGroup.findFirst({ where: { AND: [{ id }, userGroupReadScope(actor)] }, select: { name: true } });
  if (!group) throw unprocessable(`links.owner: no user group with id ${id}`);
  if (!(await isGroupAdmin(actor, id, tx))) throw refused();
  return { kind: "group", id, name: group.name };
}

/** Serialises creates and renames of one owner's collections, so the uniqueness checks below hold under concurrency. */
async function lockOwner(tx: Tx, owner: Owner) {
  await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext($1))`, `collections_of:${owner.kind}:${owner.id}`);
}

/** Display names are unique per owner without regard to case, as on the reference platform. */
async function ensureDisplayNameFree(tx: Tx, owner: Owner, displayName: string, exceptId?: number) {
  const clash = await tx.collection.findFirst({
    where: { ...ownerWhere(owner), displayName: equalsIgnoringCase(displayName), NOT: exceptId ? { id: exceptId } : undefined },
    select: { id: true },
  });
  if (clash)
    throw badRequest(
      `display_name '${displayName}' has already been taken by another of the owner's collections (collections/${clash.id})`,
    );
}

async function ensureNoOtherFavourites(tx: Tx, owner: Owner, projectIds: number[]) {
  if (!projectIds.length) return;
  const existing = await tx.collection.findFirst({
    where: { ...ownerWhere(owner), favorite: true, projectIds: { hasSome: projectIds } },
    select: { id: true, displayName: true, projectIds: true },
  });
  if (existing) {
    const shared = existing.projectIds.filter((id) => projectIds.includes(id));
    throw badRequest(
      `The owner already has a favourites collection for project ${shared.join(", ")}: ` +
        `collections/${existing.id} ('${existing.displayName}'); add subjects to it instead`,
    );
  }
}

export const collections: ResourceDef<CollectionRow> = {
  type: "collections",
  table: "collections",
  model: "collection",
  tokenScopes: { read: "none", write: "collection" },
  queryInclude: {
    owner: { select: { id: true, login: true, displayName: true } },
    ownerGroup: { select: { id: true, name: true, displayName: true } },
    roles: { select: { id: true }, orderBy: { id: "asc" } },
  },
  serialize: serializeCollection,
  // The record the generic routes made is serializeCollection(row), made again here with its type.
  present: async (_record, row, { actor, truncations }) => {
    const { views, perCollection } = await viewsOfPage(row, actor);
    return withView(serializeCollection(row), views.get(row.id)!, truncations, perCollection);
  },
  linkTemplates: {
    owner: { href: "/{collections.owner.href}", type: "owners" },
    subjects: { href: "/subjects?collection_id={collections.id}", type: "subjects" },
    projects: { href: "/projects/{collections.projects}", type: "projects" },
    default_subject: { href: "/subjects/{collections.default_subject}", type: "subjects" },
    collection_roles: { href: "/collection_roles?collection_id={collections.id}", type: "collection_roles" },
  },
  includes: {
    owner: {
      type: "owners",
      load: async (rows, actor) => {
        const userIds = [...new Set(rows.flatMap((r) => (r.ownerId === null ? [] : [r.ownerId])))];
        const owners = userIds.length ? await db().user.findMany({ where: { id: { in: userIds } }, orderBy: { id: "asc" } }) : [];
        const groups = [...new Map(rows.flatMap((r) => (r.ownerGroup ? [[r.ownerGroup.id, r.ownerGroup] as const] : []))).values()];
        return [
          ...owners.map((u) => ({ record: users.serialize(u, actor), parentIds: rows.filter((r) => r.ownerId === u.id).map((r) => r.id) })),
          // A group owner is linked minimally: what the collection's owner link already shows.
          ...groups.map((g) => ({
            record: {
              id: String(g.id),
              display_name: g.displayName,
              name: g.name,
              type: "user_groups",
              href: `/user_groups/${g.id}`,
              links: {},
            },
            parentIds: rows.filter((r) => r.ownerGroupId === g.id).map((r) => r.id),
          })),
        ];
      },
    },
    collection_roles: {
      type: "collection_roles",
      load: async (rows, actor) => {
        const roles = await db().collectionRole.findMany({
          where: { AND: [{ collectionId: { in: rows.map((r) => r.id) } }, await collectionRoleRecords.readScope(actor)] },
          include: collectionRoleRecords.queryInclude,
          orderBy: { id: "asc" },
        });
        return roles.map((r) => ({ record: collectionRoleRecords.serialize(r as never, actor), parentIds: [r.collectionId] }));
      },
    },
    // Each collection's newest subjects, as many as the include's caps allow: only those are read (a
    // collection may hold 30,000); the rest are paged through /subjects?collection_id=.
    subjects: {
      type: "subjects",
      load: async (rows, actor, { perRecord, perResponse }) => {
        const views = await collectionViews(rows, actor, db(), perRecord);
        const parents = new Map<number, number[]>();
        const cut: number[] = [];
        for (const r of rows) {
          const view = views.get(r.id)!;
          let left = view.subjectsCut;
          for (const id of view.subjectIds) {
            if (!parents.has(id) && parents.size >= perResponse) left = true;
            else parents.set(id, [...(parents.get(id) ?? []), r.id]);
          }
          if (left) cut.push(r.id);
        }
        const found = parents.size
          ? await db().subject.findMany({ where: { id: { in: [...parents.keys()] } }, include: subjects.queryInclude })
          : [];
        const byId = new Map(found.map((s) => [s.id, s]));
        // In the links' order (each collection's newest first), so the generic caps keep the same ones.
        const linked: LoadedLinked[] = [...parents].flatMap(([id, parentIds]) => {
          const s = byId.get(id);
          return s ? [{ record: subjects.serialize(s as never, actor), parentIds }] : [];
        });
        return { linked, cut };
      },
    },
    projects: {
      type: "projects",
      load: async (rows, actor) => {
        const ids = [...new Set(rows.flatMap((r) => r.projectIds))];
        if (!ids.length) return [];
        const found = await db().project.findMany({
          where: { AND: [{ id: { in: ids } }, projectReadScope(actor)] },
          include: projects.queryInclude as Prisma.ProjectInclude,
          orderBy: { id: "asc" },
        });
        return found.map((p) => ({
          record: projects.serialize(p as never, actor),
          parentIds: rows.filter((r) => r.projectIds.includes(p.id)).map((r) => r.id),
        }));
      },
    },
  },
  filters: {
    // A user's login or a user group's name (several: comma-separated), without regard to case.
    owner: (v) => {
      const names = v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      if (names.length > 100) throw unprocessable("owner: at most 100 names");
      return { OR: names.flatMap((name) => [{ owner: { login: name } }, { ownerGroup: { name: equalsIgnoringCase(name) } }]) };
    },
    favorite: (v) => ({ favorite: parseBooleanParam(v, "favorite") }),
    project_ids: (v) => ({ projectIds: { hasSome: parseIdList(v, "project_ids") } }),
    project_id: (v) => ({ projectIds: { hasSome: parseIdList(v, "project_id") } }),
    display_name: (v) => ({ displayName: v }),
    slug: (v) => ({ slug: v.toLowerCase() }),
    search: (v) => ({ displayName: containsIgnoringCase(v) }),
    // Collections holding any of these subjects (among those the caller may see).
    subject_id: async (v, actor) => {
      const ids = parseIdList(v, "subject_id");
      const visible = await db().subject.findMany({
        where: { AND: [{ id: { in: ids } }, { project: projectReadScope(actor) }] },
        select: { id: true },
      });
      return { subjects: { some: { subjectId: { in: visible.map((s) => s.id) } } } };
    },
    // Collections holding at least this many subjects (the established platform's min_subjects).
    min_subjects: async (v) => {
      const n = parseCountParam(v, "min_subjects", { fallback: 0, min: 0 });
      if (n === 0) return {};
      if (n === 1) return { subjects: { some: {} } };
      const rows = await db().$queryRaw<
        { id: number }[]
      >`SELECT collection_id AS id FROM collection_subjects GROUP BY collection_id HAVING count(*) >= ${n}`;
      return { id: { in: rows.map((r) => r.id) } };
    },
    // The official front end lists the collections a user may add subjects to with current_user_roles=owner,collaborator,contributor.
    current_user_roles: (v, actor) => {
      const roles = v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = roles.filter((r) => !(COLLECTION_ROLE_NAMES as readonly string[]).includes(r));
      if (unknown.length)
        throw unprocessable(`current_user_roles: unknown role(s) ${unknown.join(", ")}; roles are ${COLLECTION_ROLE_NAMES.join(", ")}`);
      if (!actor.user) return { id: -1 };
      const userId = actor.user.id;
      const owned = roles.includes("owner") ? [{ ownerId: userId }, { ownerGroup: activeMemberOf(userId, ["group_admin"]) }] : [];
      return { OR: [{ roles: { some: { userId, roles: { hasSome: roles } } } }, ...owned] };
    },
  },
  sortable: { id: "id", display_name: "displayName", created_at: "createdAt", updated_at: "updatedAt" },
  defaultSort: "id",
  readScope: collectionReadScope,
  can: (actor, action, row, tx) => (action === "show" ? true : canOnCollection(actor, action, row, tx)),
  create: {
    schema: ZCreateCollection,
    perform: async ({ actor, tx }, input: z.infer<typeof ZCreateCollection>) => {
      const links = input.links ?? {};
      if (links.project !== undefined && links.projects !== undefined)
        throw unprocessable("links.project and links.projects must not be set together");
      const owner = await ownerFor(tx, actor, links.owner);
      const projectIds = await requireVisibleProjects(
        tx,
        actor,
        links.projects ?? (links.project === undefined ? [] : [links.project]),
        links.projects ? "links.projects" : "links.project",
      );
      const subjectIds = await requireVisibleSubjects(tx, actor, links.subjects ?? [], "links.subjects");
      const defaultSubjectId =
        links.default_subject === undefined ? null : await defaultSubjectFrom(tx, actor, links.default_subject, "links.default_subject");
      await lockOwner(tx, owner);
      if (input.favorite) await ensureNoOtherFavourites(tx, owner, projectIds);
      await ensureDisplayNameFree(tx, owner, input.display_name);
      const name = input.name ?? defaultCollectionName(input.display_name);
      const collection = await tx.collection.create({
        data: {
          ...(owner.kind === "user" ? { ownerId: owner.id } : { ownerGroupId: owner.id }),
          displayName: input.display_name,
          name,
          slug: collectionSlug(owner.name, name),
          private: input.private ?? false,
          favorite: input.favorite ?? false,
          description: input.description ?? "",
          projectIds,
          defaultSubjectId,
        },
      });
      // A user owner holds the owner role, as a project's owner does; a group's admins act for a group owner.
      if (owner.kind === "user")
        await tx.collectionRole.create({ data: { collectionId: collection.id, userId: owner.id, roles: ["owner"] } });
      await insertCollectionSubjects(tx, collection.id, subjectIds);
      return collection.id;
    },
  },
  update: {
    schema: ZUpdateCollection,
    perform: async ({ actor, tx }, row, input: z.infer<typeof ZUpdateCollection>) => {
      const owner = ownerOf(row);
      const data: Prisma.CollectionUncheckedUpdateInput = {
        name: input.name,
        displayName: input.display_name,
        private: input.private,
        description: input.description,
        updatedAt: new Date(),
      };
      if (owner && input.display_name !== undefined && input.display_name.toLowerCase() !== row.displayName.toLowerCase()) {
        await lockOwner(tx, owner);
        await ensureDisplayNameFree(tx, owner, input.display_name, row.id);
      }
      if (owner && input.name !== undefined) data.slug = collectionSlug(owner.name, input.name);
      // Subjects first: removing the default subject clears it, unless this edit names a new one.
      if (input.links?.subjects) await replaceCollectionSubjects(tx, actor, row, input.links.subjects);
      if (input.links?.default_subject !== undefined)
        data.defaultSubjectId = await defaultSubjectFrom(tx, actor, input.links.default_subject, "links.default_subject");
      await tx.collection.update({ where: { id: row.id }, data });
    },
  },
  destroy: async ({ tx }, row) => {
    await tx.collection.delete({ where: { id: row.id } });
  },
};

/** include=collection: the record's collection, when the actor may see it. */
export function collectionInclude<R extends { id: number; collectionId: number }>(): IncludeDef<R> {
  return {
    type: "collections",
    load: async (rows, actor, { truncations }) => {
      const found = (await db().collection.findMany({
        where: { AND: [{ id: { in: [...new Set(rows.map((r) => r.collectionId))] } }, collectionReadScope(actor)] },
        include: collections.queryInclude as Prisma.CollectionInclude,
        orderBy: { id: "asc" },
      })) as unknown as CollectionRow[];
      const records = await presentCollections(found, actor, truncations);
      return found.map((c, i) => ({ record: records[i], parentIds: rows.filter((r) => r.collectionId === c.id).map((r) => r.id) }));
    },
  };
}
