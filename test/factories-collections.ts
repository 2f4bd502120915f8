import { db } from "@/lib/db";
import { api } from "./http";
import { createProject, createSubjectSet, signedInUser, uid } from "./factories";

// Collections, their roles and preferences, and the user groups that may own them, for tests (each
// uniquely named). Records are written straight to the tables, so a test sets up exactly the state it
// then reads or changes through the API.

export type TestUser = Awaited<ReturnType<typeof signedInUser>>;

/** A user group with an active group_admin (written straight to the tables). */
export async function createGroupOwnedBy(adminUserId: number, opts: { private?: boolean } = {}) {
  const name = `group_${uid()}`;
  const group = await db().userGroup.create({
    data: { name, displayName: `Group ${name}`, private: opts.private ?? true, joinToken: uid() },
  });
  await db().membership.create({ data: { userGroupId: group.id, userId: adminUserId, state: "active", roles: ["group_admin"] } });
  return group;
}

export async function addGroupMember(
  userGroupId: number,
  userId: number,
  state: "invited" | "active" | "inactive" = "active",
  roles: string[] = ["group_member"],
) {
  return db().membership.create({ data: { userGroupId, userId, state, roles } });
}

/** A collection owned by a user (who gets the owner role, as a create through the API gives it) or a group. */
export async function createCollection(
  owner: { userId: number } | { groupId: number },
  data: {
    private?: boolean;
    favorite?: boolean;
    displayName?: string;
    projectIds?: number[];
    subjectIds?: number[];
    defaultSubjectId?: number;
  } = {},
) {
  const displayName = data.displayName ?? `Collection ${uid()}`;
  const collection = await db().collection.create({
    data: {
      ...("userId" in owner ? { ownerId: owner.userId } : { ownerGroupId: owner.groupId }),
      name: displayName.toLowerCase().replace(/\s+/g, "_"),
      displayName,
      slug: `owner/${displayName.toLowerCase().replace(/\s+/g, "-")}`,
      private: data.private ?? false,
      favorite: data.favorite ?? false,
      projectIds: data.projectIds ?? [],
      defaultSubjectId: data.defaultSubjectId ?? null,
    },
  });
  if ("userId" in owner)
    await db().collectionRole.create({ data: { collectionId: collection.id, userId: owner.userId, roles: ["owner"] } });
  for (const subjectId of data.subjectIds ?? []) await addToCollection(collection.id, [subjectId]);
  return collection;
}

/**
 * Adds subjects in the order given, each a millisecond after the collection's newest (created_at keeps
 * milliseconds), so they are listed newest (last given) first.
 */
export async function addToCollection(collectionId: number, subjectIds: number[]) {
  for (const subjectId of subjectIds) {
    await db().$executeRawUnsafe(
      `INSERT INTO collection_subjects (collection_id, subject_id, created_at)
       SELECT $1, $2, greatest(clock_timestamp()::timestamp(3), max(created_at) + interval '1 millisecond') FROM collection_subjects WHERE collection_id = $1`,
      collectionId,
      subjectId,
    );
  }
}

export async function grantCollectionRole(collectionId: number, userId: number, roles: string[]) {
  return db().collectionRole.create({ data: { collectionId, userId, roles } });
}

export async function collectionSubjectIds(collectionId: number): Promise<number[]> {
  return (await db().collectionSubject.findMany({ where: { collectionId }, orderBy: { subjectId: "asc" } })).map((r) => r.subjectId);
}

/** A public project with n subjects (locations https://example.test/<i>.png), owned by a fresh user. */
export async function projectWithSubjects(n: number, opts: { private?: boolean } = {}) {
  const owner = await signedInUser();
  const project = await createProject(owner.user.id, { private: opts.private });
  const { subjects } = await createSubjectSet(project.id, n);
  return { owner, project, subjects };
}

/**
 * A private collection of `owner` with a user in each position: collaborator, contributor, viewer, a
 * signed-in stranger, and an admin.
 */
export async function collectionCast(opts: { private?: boolean; subjectIds?: number[]; projectIds?: number[] } = {}) {
  const [owner, collaborator, contributor, viewer, stranger, admin] = await Promise.all([
    signedInUser(),
    signedInUser(),
    signedInUser(),
    signedInUser(),
    signedInUser(),
    signedInUser({ admin: true }),
  ]);
  const collection = await createCollection(
    { userId: owner.user.id },
    { private: opts.private ?? true, subjectIds: opts.subjectIds, projectIds: opts.projectIds },
  );
  await grantCollectionRole(collection.id, collaborator.user.id, ["collaborator"]);
  await grantCollectionRole(collection.id, contributor.user.id, ["contributor"]);
  await grantCollectionRole(collection.id, viewer.user.id, ["viewer"]);
  return { collection, owner, collaborator, contributor, viewer, stranger, admin };
}

/** The current ETag of a record as `token` sees it ("*" when it cannot see it, so the write reaches its real refusal). */
export async function etagAs(path: string, token?: string): Promise<string> {
  return (await api.get(path, { token })).headers.get("etag") ?? "*";
}
