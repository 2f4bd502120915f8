import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { signedInUser } from "@/test/factories";
import {
  addGroupMember,
  collectionCast,
  createCollection,
  createGroupOwnedBy,
  etagAs,
  grantCollectionRole,
  projectWithSubjects,
  type TestUser,
} from "@/test/factories-collections";
import { resourceContract } from "@/test/resource-contract";

resourceContract({
  type: "collection_roles",
  async setup() {
    const { collection, owner, viewer, stranger } = await collectionCast({ private: true });
    const role = await db().collectionRole.findUniqueOrThrow({
      where: { collectionId_userId: { collectionId: collection.id, userId: viewer.user.id } },
    });
    // The holder sees their own role but may not change it.
    return { id: role.id, writer: owner.token, reader: viewer.token, stranger: stranger.token };
  },
  async seedMany(n) {
    const owner = await signedInUser();
    const collection = await createCollection({ userId: owner.user.id });
    for (let i = 0; i < n - 1; i++) await grantCollectionRole(collection.id, (await signedInUser()).user.id, ["viewer"]);
    return { query: `collection_id=${collection.id}`, token: owner.token };
  },
  async createRecord() {
    const owner = await signedInUser();
    const collection = await createCollection({ userId: owner.user.id });
    const other = await signedInUser();
    return {
      record: { roles: ["collaborator"], links: { collection: String(collection.id), user: String(other.user.id) } },
      token: owner.token,
    };
  },
  update: { roles: ["contributor", "viewer"] },
  invalidUpdate: { roles: "viewer" },
  async privateRecord() {
    const { collection, viewer, stranger } = await collectionCast({ private: false });
    const role = await db().collectionRole.findUniqueOrThrow({
      where: { collectionId_userId: { collectionId: collection.id, userId: viewer.user.id } },
    });
    return { id: role.id, insider: viewer.token, stranger: stranger.token };
  },
  destroy: true,
  strangerEditStatus: 404,
  includes: ["collection"],
  sortable: ["created_at", "updated_at"],
});

const roleOf = (collectionId: number, userId: number) =>
  db().collectionRole.findUniqueOrThrow({ where: { collectionId_userId: { collectionId, userId } } });

describe("collection_roles: rules", () => {
  it("are visible to their holder and to those who may edit the collection, and filter by user_id and collection_id", async () => {
    const cast = await collectionCast({ private: true });
    const id = cast.collection.id;
    const count = async (token: string | undefined, query = `collection_id=${id}`) =>
      (await api.get(`/collection_roles?${query}`, { token })).body.collection_roles.length;
    const table: [string, string | undefined, number][] = [
      ["owner", cast.owner.token, 4],
      ["collaborator", cast.collaborator.token, 4],
      ["admin", cast.admin.token, 4],
      ["contributor", cast.contributor.token, 1],
      ["viewer", cast.viewer.token, 1],
      ["another user", cast.stranger.token, 0],
      ["anonymous", undefined, 0],
    ];
    for (const [who, token, n] of table) expect(await count(token), who).toBe(n);
    expect(await count(cast.owner.token, `collection_id=${id}&user_id=${cast.viewer.user.id}`)).toBe(1);
    expect(await count(cast.owner.token, `user_id=${cast.viewer.user.id}`)).toBe(1);

    const viewerRole = await roleOf(id, cast.viewer.user.id);
    const shown = await api.get(`/collection_roles/${viewerRole.id}?include=collection`, { token: cast.viewer.token });
    expect(shown.body.collection_roles[0]).toMatchObject({
      id: String(viewerRole.id),
      roles: ["viewer"],
      href: `/collection_roles/${viewerRole.id}`,
      links: { collection: String(id), owner: { id: String(cast.viewer.user.id), type: "users", href: `/users/${cast.viewer.user.id}` } },
    });
    expect(shown.body.linked.collections[0]).toMatchObject({ id: String(id), links: { subjects: [], default_subject: null } });
    expect(shown.body.links).toEqual({
      "collection_roles.collection": { href: "/collections/{collection_roles.collection}", type: "collections" },
      "collection_roles.owner": { href: "/{collection_roles.owner.href}", type: "owners" },
    });
    for (const token of [cast.contributor.token, cast.stranger.token, undefined])
      expect((await api.get(`/collection_roles/${viewerRole.id}`, { token })).status).toBe(404);
  });

  it("shows a group-owned collection's roles to the group's admins, who manage them", async () => {
    const [groupAdmin, member, holder, newcomer] = await Promise.all([signedInUser(), signedInUser(), signedInUser(), signedInUser()]);
    const group = await createGroupOwnedBy(groupAdmin.user.id);
    await addGroupMember(group.id, member.user.id);
    const collection = await createCollection({ groupId: group.id }, { private: true });
    const role = await grantCollectionRole(collection.id, holder.user.id, ["viewer"]);
    expect(
      (await api.get(`/collection_roles?collection_id=${collection.id}`, { token: groupAdmin.token })).body.collection_roles,
    ).toHaveLength(1);
    expect((await api.get(`/collection_roles?collection_id=${collection.id}`, { token: member.token })).body.collection_roles).toHaveLength(
      0,
    );
    const body = {
      collection_roles: { roles: ["contributor"], links: { collection: String(collection.id), user: String(newcomer.user.id) } },
    };
    expect((await api.post("/collection_roles", body, { token: member.token })).status).toBe(403);
    expect((await api.post("/collection_roles", body, { token: groupAdmin.token })).status).toBe(201);
    const edited = await api.put(
      `/collection_roles/${role.id}`,
      { collection_roles: { roles: ["collaborator"] } },
      { token: groupAdmin.token, headers: { "if-match": await etagAs(`/collection_roles/${role.id}`, groupAdmin.token) } },
    );
    expect(edited.status).toBe(200);
    expect(edited.body.collection_roles[0].roles).toEqual(["collaborator"]);
  });

  it("are created by editors only, with valid roles, once per user; the new holder then sees a private collection", async () => {
    const cast = await collectionCast({ private: true });
    const newcomer = await signedInUser();
    const id = cast.collection.id;
    const body = (roles: unknown, user: number | string = newcomer.user.id, collection: number | string = id) => ({
      collection_roles: { roles, links: { collection: String(collection), user: String(user) } },
    });
    const before = await db().collectionRole.count({ where: { collectionId: id } });
    const refused: [string, TestUser | undefined, object, number, RegExp][] = [
      ["contributor", cast.contributor, body(["viewer"]), 403, /owner and collaborators/],
      ["viewer", cast.viewer, body(["viewer"]), 403, /owner and collaborators/],
      ["another user, private collection", cast.stranger, body(["viewer"]), 404, /collections/],
      ["anonymous", undefined, body(["viewer"]), 401, /signed in/],
      ["the owner role", cast.owner, body(["owner"]), 422, /roles/],
      ["an unknown role", cast.owner, body(["wizard"]), 422, /roles/],
      ["roles not a list", cast.owner, body("viewer"), 422, /roles/],
      ["an unknown user", cast.owner, body(["viewer"], 99999999), 422, /No user/],
      ["a malformed collection id", cast.owner, body(["viewer"], newcomer.user.id, "abc"), 422, /links\.collection/],
      ["an existing holder", cast.owner, body(["collaborator"], cast.viewer.user.id), 400, /already has a role/],
      [
        "unknown attribute",
        cast.owner,
        { collection_roles: { roles: [], colour: 1, links: { collection: String(id), user: String(newcomer.user.id) } } },
        422,
        /colour/,
      ],
    ];
    for (const [name, who, record, status, message] of refused) {
      const res = await api.post("/collection_roles", record, { token: who?.token });
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toMatch(message);
    }
    expect(await db().collectionRole.count({ where: { collectionId: id } })).toBe(before);

    expect((await api.get(`/collections/${id}`, { token: newcomer.token })).status).toBe(404);
    const created = await api.post("/collection_roles", body(["viewer", "viewer"]), { token: cast.collaborator.token });
    expect(created.status).toBe(201);
    expect(created.body.collection_roles[0]).toMatchObject({
      roles: ["viewer"],
      links: { collection: String(id), owner: { id: String(newcomer.user.id) } },
    });
    expect((await api.get(`/collections/${id}`, { token: newcomer.token })).status).toBe(200);
  });

  it("are edited (full array) and removed by editors; holders cannot change their own; the owner's role is fixed", async () => {
    const cast = await collectionCast({ private: true });
    const id = cast.collection.id;
    const put = async (path: string, roles: unknown, token: string) =>
      api.put(path, { collection_roles: { roles } }, { token, headers: { "if-match": await etagAs(path, token) } });
    const viewerRole = await roleOf(id, cast.viewer.user.id);
    const contributorRole = await roleOf(id, cast.contributor.user.id);
    const ownerRole = await roleOf(id, cast.owner.user.id);

    expect((await put(`/collection_roles/${viewerRole.id}`, ["collaborator"], cast.viewer.token)).status).toBe(403);
    expect((await put(`/collection_roles/${contributorRole.id}`, ["collaborator"], cast.contributor.token)).status).toBe(403);
    const promoted = await put(`/collection_roles/${viewerRole.id}`, ["contributor"], cast.collaborator.token);
    expect(promoted.status).toBe(200);
    expect(promoted.body.collection_roles[0].roles).toEqual(["contributor"]);
    expect((await put(`/collection_roles/${viewerRole.id}`, ["owner"], cast.owner.token)).status).toBe(422);
    expect((await put(`/collection_roles/${ownerRole.id}`, ["viewer"], cast.owner.token)).status).toBe(422);
    expect(
      (
        await api.delete(`/collection_roles/${ownerRole.id}`, {
          token: cast.owner.token,
          headers: { "if-match": await etagAs(`/collection_roles/${ownerRole.id}`, cast.owner.token) },
        })
      ).status,
    ).toBe(422);
    expect((await roleOf(id, cast.owner.user.id)).roles).toEqual(["owner"]);
    expect((await roleOf(id, cast.viewer.user.id)).roles).toEqual(["contributor"]);

    // A contributor may not remove a role; the owner may. The former holder then loses sight of the private collection.
    const path = `/collection_roles/${viewerRole.id}`;
    expect(
      (await api.delete(path, { token: cast.contributor.token, headers: { "if-match": await etagAs(path, cast.contributor.token) } }))
        .status,
    ).toBe(404);
    expect(
      (await api.delete(path, { token: cast.owner.token, headers: { "if-match": await etagAs(path, cast.owner.token) } })).status,
    ).toBe(204);
    expect((await api.get(`/collections/${id}`, { token: cast.viewer.token })).status).toBe(404);
  });

  it("a contributor's role lets it add subjects but not remove them", async () => {
    const { subjects } = await projectWithSubjects(1);
    const cast = await collectionCast({ private: true });
    const added = await api.post(
      `/collections/${cast.collection.id}/links/subjects`,
      { subjects: [String(subjects[0].id)] },
      { token: cast.contributor.token },
    );
    expect(added.status).toBe(200);
    expect(
      (await api.delete(`/collections/${cast.collection.id}/links/subjects/${subjects[0].id}`, { token: cast.contributor.token })).status,
    ).toBe(403);
  });
});
