import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { signedInUser } from "@/test/factories";
import { collectionCast, createCollection, etagAs, type TestUser } from "@/test/factories-collections";
import { resourceContract } from "@/test/resource-contract";

async function preference(userId: number, collectionId: number, preferences: object = {}) {
  return db().collectionPreference.create({ data: { userId, collectionId, preferences } });
}

// The owning user reads and edits; an admin reads but may not edit (403); anyone else gets 404.
resourceContract({
  type: "collection_preferences",
  async setup() {
    const [volunteer, admin, stranger, owner] = await Promise.all([
      signedInUser(),
      signedInUser({ admin: true }),
      signedInUser(),
      signedInUser(),
    ]);
    const collection = await createCollection({ userId: owner.user.id });
    const pref = await preference(volunteer.user.id, collection.id, { display: "grid" });
    return { id: pref.id, writer: volunteer.token, reader: admin.token, stranger: stranger.token };
  },
  async seedMany(n) {
    const [volunteer, owner] = await Promise.all([signedInUser(), signedInUser()]);
    for (let i = 0; i < n; i++) await preference(volunteer.user.id, (await createCollection({ userId: owner.user.id })).id);
    return { query: `user_id=${volunteer.user.id}`, token: volunteer.token };
  },
  async createRecord() {
    const [volunteer, owner] = await Promise.all([signedInUser(), signedInUser()]);
    const collection = await createCollection({ userId: owner.user.id });
    return { record: { preferences: { display: "grid" }, links: { collection: String(collection.id) } }, token: volunteer.token };
  },
  update: { preferences: { display: "list" } },
  invalidUpdate: { preferences: "list" },
  async privateRecord() {
    const [volunteer, stranger, owner] = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
    const pref = await preference(volunteer.user.id, (await createCollection({ userId: owner.user.id })).id);
    return { id: pref.id, insider: volunteer.token, stranger: stranger.token };
  },
  strangerEditStatus: 404,
  includes: ["collection", "user"],
  sortable: ["created_at", "updated_at"],
});

describe("collection preferences", () => {
  it("are visible only to their user (and admins), filter by user_id and collection_id, and include collection and user", async () => {
    const [volunteer, other, admin, owner] = await Promise.all([
      signedInUser(),
      signedInUser(),
      signedInUser({ admin: true }),
      signedInUser(),
    ]);
    const collection = await createCollection({ userId: owner.user.id });
    const mine = await preference(volunteer.user.id, collection.id, { display: "grid" });
    const theirs = await preference(other.user.id, collection.id);
    const list = async (query: string, token?: string) =>
      ((await api.get(`/collection_preferences?${query}`, { token })).body.collection_preferences as { id: string }[])
        .map((p) => Number(p.id))
        .sort();
    const table: [string, string, string | undefined, number[]][] = [
      ["the user, by collection", `collection_id=${collection.id}`, volunteer.token, [mine.id]],
      ["the user, someone else's by user_id", `user_id=${other.user.id}`, volunteer.token, []],
      ["the user, own by user_id", `user_id=${volunteer.user.id}`, volunteer.token, [mine.id]],
      ["the collection's owner", `collection_id=${collection.id}`, owner.token, []],
      ["anonymous", `collection_id=${collection.id}`, undefined, []],
      ["an admin", `collection_id=${collection.id}`, admin.token, [mine.id, theirs.id].sort()],
    ];
    for (const [who, query, token, expected] of table) expect(await list(query, token), who).toEqual(expected);
    for (const token of [other.token, owner.token, undefined])
      expect((await api.get(`/collection_preferences/${mine.id}`, { token })).status).toBe(404);

    const shown = await api.get(`/collection_preferences/${mine.id}?include=collection,user`, { token: volunteer.token });
    expect(shown.body.collection_preferences[0]).toEqual({
      id: String(mine.id),
      preferences: { display: "grid" },
      created_at: mine.createdAt.toISOString(),
      updated_at: mine.updatedAt.toISOString(),
      href: `/collection_preferences/${mine.id}`,
      links: { user: String(volunteer.user.id), collection: String(collection.id) },
    });
    expect(shown.body.linked.collections[0]).toMatchObject({ id: String(collection.id), links: { subjects: [] } });
    expect(shown.body.linked.users[0].id).toBe(String(volunteer.user.id));
    expect(shown.body.links).toEqual({
      "collection_preferences.user": { href: "/users/{collection_preferences.user}", type: "users" },
      "collection_preferences.collection": { href: "/collections/{collection_preferences.collection}", type: "collections" },
    });
  });

  it("are created for the current user, once per visible collection", async () => {
    const cast = await collectionCast({ private: true });
    const volunteer = await signedInUser();
    const open = await createCollection({ userId: cast.owner.user.id });
    const body = (collectionId: number | string, extra: object = {}) => ({
      collection_preferences: { links: { collection: String(collectionId) }, ...extra },
    });
    const created = await api.post("/collection_preferences", body(open.id, { preferences: { display: "list" } }), {
      token: volunteer.token,
    });
    expect(created.status).toBe(201);
    expect(created.body.collection_preferences[0]).toMatchObject({
      preferences: { display: "list" },
      links: { user: String(volunteer.user.id), collection: String(open.id) },
    });
    const viewerPref = await api.post("/collection_preferences", body(cast.collection.id), { token: cast.viewer.token });
    expect(viewerPref.status).toBe(201);
    expect(viewerPref.body.collection_preferences[0].preferences).toEqual({});

    const refused: [string, TestUser | undefined, object, number, RegExp][] = [
      ["a second one", volunteer, body(open.id), 400, /already have a preference/],
      ["a private collection it cannot see", cast.stranger, body(cast.collection.id), 404, /collections/],
      ["an unknown collection", volunteer, body(99999999), 404, /collections/],
      ["no collection", volunteer, { collection_preferences: { preferences: {} } }, 422, /links/],
      ["a malformed collection id", volunteer, body("abc"), 422, /links\.collection/],
      [
        "someone else as user",
        cast.stranger,
        body(open.id, { links: { collection: String(open.id), user: String(volunteer.user.id) } }),
        422,
        /current user/,
      ],
      ["preferences not a hash", cast.stranger, body(open.id, { preferences: ["grid"] }), 422, /preferences/],
      ["unknown attribute", cast.stranger, body(open.id, { settings: {} }), 422, /settings/],
      ["anonymous", undefined, body(open.id), 401, /signed in/],
    ];
    for (const [name, who, record, status, message] of refused) {
      const res = await api.post("/collection_preferences", record, { token: who?.token });
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toMatch(message);
    }
    expect(await db().collectionPreference.count({ where: { collectionId: open.id } })).toBe(1);
    expect(await db().collectionPreference.count({ where: { collectionId: cast.collection.id } })).toBe(1);
    // Their own user given explicitly is fine.
    const explicit = await api.post(
      "/collection_preferences",
      body(open.id, { links: { collection: String(open.id), user: String(cast.stranger.user.id) } }),
      { token: cast.stranger.token },
    );
    expect(explicit.status).toBe(201);
  });

  it("are edited (full hash) by their user only, and never deleted through the API", async () => {
    const [volunteer, admin, owner] = await Promise.all([signedInUser(), signedInUser({ admin: true }), signedInUser()]);
    const collection = await createCollection({ userId: owner.user.id });
    const pref = await preference(volunteer.user.id, collection.id, { display: "grid", sort: "newest" });
    const path = `/collection_preferences/${pref.id}`;
    const put = async (token: string, record: object) =>
      api.put(path, { collection_preferences: record }, { token, headers: { "if-match": await etagAs(path, token) } });

    const edited = await put(volunteer.token, { preferences: { display: "list" } });
    expect(edited.status).toBe(200);
    expect(edited.body.collection_preferences[0].preferences).toEqual({ display: "list" });

    const before = await db().collectionPreference.findUniqueOrThrow({ where: { id: pref.id } });
    const refused: [string, string, object, number][] = [
      ["an admin", admin.token, { preferences: { display: "grid" } }, 403],
      ["the collection's owner", owner.token, { preferences: { display: "grid" } }, 404],
      ["preferences not a hash", volunteer.token, { preferences: "grid" }, 422],
      ["no preferences", volunteer.token, {}, 422],
      ["links", volunteer.token, { preferences: {}, links: { collection: String(collection.id) } }, 422],
    ];
    for (const [name, token, record, status] of refused) {
      const res = await put(token, record);
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toBeTruthy();
    }
    expect(await db().collectionPreference.findUniqueOrThrow({ where: { id: pref.id } })).toEqual(before);
    expect((await api.delete(path, { token: volunteer.token, headers: { "if-match": await etagAs(path, volunteer.token) } })).status).toBe(
      405,
    );
  });
});
