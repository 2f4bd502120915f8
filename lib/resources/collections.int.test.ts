import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { MAX_LISTABLE_COLLECTION_SUBJECTS } from "@/lib/domain/collection-subjects";
import { api } from "@/test/http";
import { createProject, grantProjectRole, signedInUser, uid } from "@/test/factories";
import {
  addGroupMember,
  addToCollection,
  collectionCast,
  collectionSubjectIds,
  createCollection,
  createGroupOwnedBy,
  etagAs,
  grantCollectionRole,
  projectWithSubjects,
  type TestUser,
} from "@/test/factories-collections";
import { resourceContract } from "@/test/resource-contract";

resourceContract({
  type: "collections",
  async setup() {
    const { project, subjects } = await projectWithSubjects(2);
    const { collection, owner, viewer, stranger } = await collectionCast({
      private: false,
      projectIds: [project.id],
      subjectIds: subjects.map((s) => s.id),
    });
    // Anyone sees a public collection; a viewer (or anyone else) may not edit it.
    return { id: collection.id, writer: owner.token, reader: viewer.token, stranger: stranger.token };
  },
  async seedMany(n) {
    const owner = await signedInUser();
    for (let i = 0; i < n; i++) await createCollection({ userId: owner.user.id }, { private: i % 2 === 0 });
    return { query: `owner=${owner.user.login}`, token: owner.token };
  },
  async createRecord() {
    const owner = await signedInUser();
    return { record: { display_name: `Things ${uid()}`, description: "Some things" }, token: owner.token };
  },
  update: { display_name: "Renamed things", description: "Edited", private: true },
  invalidUpdate: { private: "yes" },
  async privateRecord() {
    const { collection, viewer, stranger } = await collectionCast({ private: true });
    return { id: collection.id, insider: viewer.token, stranger: stranger.token };
  },
  destroy: true,
  includes: ["owner", "collection_roles", "subjects", "projects"],
  sortable: ["display_name", "created_at", "updated_at"],
});

const ids = (records: { id: string }[]) => records.map((r) => Number(r.id)).sort((a, b) => a - b);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const collectionPath = (id: number) => `/collections/${id}`;

describe("collections: the record", () => {
  it("serializes owner, subjects newest first, projects, roles, the default subject and its thumbnail", async () => {
    const owner = await signedInUser();
    const { project, subjects } = await projectWithSubjects(3);
    const [s0, s1, s2] = subjects;
    const c = await createCollection(
      { userId: owner.user.id },
      { displayName: `Fine things ${uid()}`, projectIds: [project.id], subjectIds: [s0.id, s1.id] },
    );
    const ownerRole = await db().collectionRole.findUniqueOrThrow({
      where: { collectionId_userId: { collectionId: c.id, userId: owner.user.id } },
    });

    const res = await api.get(collectionPath(c.id));
    expect(res.status).toBe(200);
    expect(res.body.collections[0]).toEqual({
      id: String(c.id),
      name: c.name,
      display_name: c.displayName,
      slug: c.slug,
      created_at: c.createdAt.toISOString(),
      updated_at: c.updatedAt.toISOString(),
      href: `/collections/${c.id}`,
      favorite: false,
      private: false,
      description: "",
      // No default subject: the thumbnail is the first (newest) subject's first location.
      default_subject_src: "https://example.test/1.png",
      links: {
        owner: { id: String(owner.user.id), display_name: owner.user.displayName, type: "users", href: `/users/${owner.user.id}` },
        subjects: [String(s1.id), String(s0.id)],
        projects: [String(project.id)],
        default_subject: null,
        collection_roles: [String(ownerRole.id)],
      },
    });
    expect(res.body.links).toEqual({
      "collections.owner": { href: "/{collections.owner.href}", type: "owners" },
      "collections.subjects": { href: "/subjects?collection_id={collections.id}", type: "subjects" },
      "collections.projects": { href: "/projects/{collections.projects}", type: "projects" },
      "collections.default_subject": { href: "/subjects/{collections.default_subject}", type: "subjects" },
      "collections.collection_roles": { href: "/collection_roles?collection_id={collections.id}", type: "collection_roles" },
    });

    await db().collection.update({ where: { id: c.id }, data: { defaultSubjectId: s2.id } });
    const withDefault = (await api.get(collectionPath(c.id))).body.collections[0];
    expect(withDefault.default_subject_src).toBe("https://example.test/2.png");
    expect(withDefault.links.default_subject).toBe(String(s2.id));

    const empty = await createCollection({ userId: owner.user.id });
    expect((await api.get(collectionPath(empty.id))).body.collections[0]).toMatchObject({
      default_subject_src: null,
      links: { subjects: [], projects: [], default_subject: null },
    });
  });

  it("links a group owner as user_groups, and includes owners (users and groups) under `owners`", async () => {
    const groupAdmin = await signedInUser();
    const group = await createGroupOwnedBy(groupAdmin.user.id, { private: false });
    const owner = await signedInUser();
    const byGroup = await createCollection({ groupId: group.id });
    const byUser = await createCollection({ userId: owner.user.id });
    const res = await api.get(`/collections?id=${byGroup.id},${byUser.id}&include=owner`);
    const groupRecord = res.body.collections.find((c: { id: string }) => c.id === String(byGroup.id));
    expect(groupRecord.links.owner).toEqual({
      id: String(group.id),
      display_name: group.displayName,
      type: "user_groups",
      href: `/user_groups/${group.id}`,
    });
    expect(groupRecord.links.collection_roles).toEqual([]);
    expect(res.body.linked.owners.map((o: { type: string; id: string }) => `${o.type}/${o.id}`).sort()).toEqual(
      [`user_groups/${group.id}`, `users/${owner.user.id}`].sort(),
    );
    const linkedGroup = res.body.linked.owners.find((o: { type: string }) => o.type === "user_groups");
    expect(linkedGroup).toMatchObject({ id: String(group.id), display_name: group.displayName, name: group.name, type: "user_groups" });
    expect(linkedGroup).not.toHaveProperty("join_token");
  });
});

describe("collections: filters and sort", () => {
  it("filters by owner (login or group name, any case, several), favorite, project ids, names, search, subject, id and the caller's roles", async () => {
    const tag = uid();
    const [alice, bob, carol] = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
    const group = await createGroupOwnedBy(bob.user.id, { private: false });
    const p1 = await createProject(alice.user.id);
    const p2 = await createProject(alice.user.id);
    const { subjects } = await projectWithSubjects(1);
    const a1 = await createCollection(
      { userId: alice.user.id },
      { displayName: `Alpha Birds ${tag}`, favorite: true, projectIds: [p1.id] },
    );
    const a2 = await createCollection(
      { userId: alice.user.id },
      { displayName: `Beta ${tag}`, projectIds: [p1.id, p2.id], subjectIds: [subjects[0].id] },
    );
    const g1 = await createCollection({ groupId: group.id }, { displayName: `Gamma birds ${tag}`, projectIds: [p2.id] });
    await grantCollectionRole(g1.id, carol.user.id, ["collaborator"]);
    const hidden = await createCollection({ userId: bob.user.id }, { private: true, projectIds: [p1.id] });
    const both = `owner=${alice.user.login},${group.name}`;

    const cases: [string, string, number[], TestUser?][] = [
      ["owner login", `owner=${alice.user.login}`, [a1.id, a2.id]],
      ["owner login in upper case", `owner=${alice.user.login.toUpperCase()}`, [a1.id, a2.id]],
      ["owner group name", `owner=${group.name.toUpperCase()}`, [g1.id]],
      ["several owners", both, [a1.id, a2.id, g1.id]],
      ["unknown owner", `owner=nobody_${tag}`, []],
      ["favorite=true", `${both}&favorite=true`, [a1.id]],
      ["favorite=false", `${both}&favorite=false`, [a2.id, g1.id]],
      ["project_ids one", `${both}&project_ids=${p1.id}`, [a1.id, a2.id]],
      ["project_id one", `${both}&project_id=${p2.id}`, [a2.id, g1.id]],
      ["project_ids several", `${both}&project_ids=${p1.id},${p2.id}`, [a1.id, a2.id, g1.id]],
      ["display_name", `${both}&display_name=${encodeURIComponent(`Beta ${tag}`)}`, [a2.id]],
      ["slug", `slug=${encodeURIComponent(a2.slug.toUpperCase())}`, [a2.id]],
      ["search, any case", `${both}&search=BIRDS`, [a1.id, g1.id]],
      ["subject_id", `subject_id=${subjects[0].id}`, [a2.id]],
      ["id", `id=${a1.id},${g1.id}`, [a1.id, g1.id]],
      ["private collection of another owner", `owner=${bob.user.login}`, [], alice],
      ["the owner sees its private collection", `owner=${bob.user.login}`, [hidden.id], bob],
      ["current_user_roles=owner", `current_user_roles=owner`, [a1.id, a2.id], alice],
      ["current_user_roles=owner for a group admin", `current_user_roles=owner`, [g1.id, hidden.id], bob],
      ["current_user_roles=collaborator,contributor", `current_user_roles=collaborator,contributor`, [g1.id], carol],
      ["current_user_roles anonymously", `current_user_roles=owner&${both}`, []],
    ];
    for (const [name, query, expected, as] of cases) {
      const res = await api.get(`/collections?${query}&page_size=100`, { token: as?.token });
      expect(res.status, name).toBe(200);
      expect(ids(res.body.collections), name).toEqual(sorted(expected));
    }

    for (const bad of ["favorite=maybe", "project_ids=abc", "project_id=1,x", "subject_id=-3", "current_user_roles=wizard", "sort=name"]) {
      const res = await api.get(`/collections?${both}&${bad}`, { token: alice.token });
      expect(res.status, bad).toBe(422);
      expect(res.body.errors[0].message, bad).toBeTruthy();
    }

    const byName = await api.get(`/collections?${both}&sort=display_name`);
    expect(byName.body.collections.map((c: { id: string }) => Number(c.id))).toEqual([a1.id, a2.id, g1.id]);
    const byNameDesc = await api.get(`/collections?${both}&sort=-display_name`);
    expect(byNameDesc.body.collections.map((c: { id: string }) => Number(c.id))).toEqual([g1.id, a2.id, a1.id]);
  });
});

describe("collections: visibility", () => {
  it("shows a private collection to its owner, role holders and admins only: list, show, includes and links", async () => {
    const cast = await collectionCast({ private: true });
    const { collection } = cast;
    const table: [string, string | undefined, boolean][] = [
      ["owner", cast.owner.token, true],
      ["collaborator", cast.collaborator.token, true],
      ["contributor", cast.contributor.token, true],
      ["viewer", cast.viewer.token, true],
      ["admin", cast.admin.token, true],
      ["another user", cast.stranger.token, false],
      ["anonymous", undefined, false],
    ];
    for (const [who, token, sees] of table) {
      expect((await api.get(collectionPath(collection.id), { token })).status, who).toBe(sees ? 200 : 404);
      expect(ids((await api.get(`/collections?id=${collection.id}`, { token })).body.collections), who).toEqual(
        sees ? [collection.id] : [],
      );
      expect(ids((await api.get(`/collections?owner=${cast.owner.user.login}`, { token })).body.collections), who).toEqual(
        sees ? [collection.id] : [],
      );
    }
    // Link endpoints are 404 to those who cannot see the collection (401 anonymously).
    const { subjects } = await projectWithSubjects(1);
    const writes: [string, () => Promise<{ status: number }>][] = [
      [
        "add subjects",
        () =>
          api.post(
            `${collectionPath(collection.id)}/links/subjects`,
            { subjects: [String(subjects[0].id)] },
            { token: cast.stranger.token },
          ),
      ],
      [
        "remove subjects",
        () => api.delete(`${collectionPath(collection.id)}/links/subjects/${subjects[0].id}`, { token: cast.stranger.token }),
      ],
      [
        "default subject",
        () => api.post(`${collectionPath(collection.id)}/links/default_subject`, { default_subject: null }, { token: cast.stranger.token }),
      ],
      [
        "edit",
        () =>
          api.put(
            collectionPath(collection.id),
            { collections: { description: "x" } },
            { token: cast.stranger.token, headers: { "if-match": "*" } },
          ),
      ],
      ["destroy", () => api.delete(collectionPath(collection.id), { token: cast.stranger.token, headers: { "if-match": "*" } })],
    ];
    for (const [name, write] of writes) expect((await write()).status, name).toBe(404);
    expect((await api.post(`${collectionPath(collection.id)}/links/subjects`, { subjects: [String(subjects[0].id)] })).status).toBe(401);
    expect(await collectionSubjectIds(collection.id)).toEqual([]);

    // A preference kept on a collection its user can no longer see does not include it.
    const pref = await db().collectionPreference.create({ data: { userId: cast.stranger.user.id, collectionId: collection.id } });
    const withCollection = await api.get(`/collection_preferences/${pref.id}?include=collection`, { token: cast.stranger.token });
    expect(withCollection.status).toBe(200);
    expect(withCollection.body.linked.collections).toEqual([]);
  });

  it("shows a group's private collection to the group's active members (group admins edit it)", async () => {
    const [groupAdmin, member, invitee, leaver, stranger] = await Promise.all([
      signedInUser(),
      signedInUser(),
      signedInUser(),
      signedInUser(),
      signedInUser(),
    ]);
    const group = await createGroupOwnedBy(groupAdmin.user.id, { private: true });
    await addGroupMember(group.id, member.user.id);
    await addGroupMember(group.id, invitee.user.id, "invited");
    await addGroupMember(group.id, leaver.user.id, "inactive", ["group_admin"]);
    const collection = await createCollection({ groupId: group.id }, { private: true });
    const table: [string, TestUser, number, number][] = [
      ["group admin", groupAdmin, 200, 200],
      ["active member", member, 200, 403],
      ["invited", invitee, 404, 404],
      ["inactive admin", leaver, 404, 404],
      ["stranger", stranger, 404, 404],
    ];
    for (const [who, user, show, edit] of table) {
      expect((await api.get(collectionPath(collection.id), { token: user.token })).status, who).toBe(show);
      const tag = await etagAs(collectionPath(collection.id), user.token);
      const res = await api.put(
        collectionPath(collection.id),
        { collections: { description: `by ${who}` } },
        { token: user.token, headers: { "if-match": tag } },
      );
      expect(res.status, who).toBe(edit);
    }
    expect((await db().collection.findUniqueOrThrow({ where: { id: collection.id } })).description).toBe("by group admin");
  });

  it("never shows subjects of projects the reader cannot see: links, thumbnail, includes and /subjects?collection_id", async () => {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const open = await projectWithSubjects(2);
    const secret = await projectWithSubjects(1, { private: true });
    await grantProjectRole(secret.project.id, owner.user.id, ["collaborator"]);
    const [o0, o1] = open.subjects;
    const [hidden] = secret.subjects;
    // The newest subject and the default are the hidden one.
    const collection = await createCollection(
      { userId: owner.user.id },
      { projectIds: [open.project.id, secret.project.id], subjectIds: [o0.id, o1.id, hidden.id], defaultSubjectId: hidden.id },
    );

    const asOwner = (await api.get(`${collectionPath(collection.id)}?include=subjects,projects`, { token: owner.token })).body;
    expect(asOwner.collections[0]).toMatchObject({
      default_subject_src: "https://example.test/0.png",
      links: {
        subjects: [String(hidden.id), String(o1.id), String(o0.id)],
        default_subject: String(hidden.id),
        projects: [String(open.project.id), String(secret.project.id)],
      },
    });
    expect(ids(asOwner.linked.subjects)).toEqual(sorted([o0.id, o1.id, hidden.id]));
    expect(ids(asOwner.linked.projects)).toEqual(sorted([open.project.id, secret.project.id]));

    for (const token of [stranger.token, undefined]) {
      const res = (await api.get(`${collectionPath(collection.id)}?include=subjects,projects`, { token })).body;
      // The thumbnail falls back to the first visible subject.
      expect(res.collections[0]).toMatchObject({
        default_subject_src: "https://example.test/1.png",
        links: { subjects: [String(o1.id), String(o0.id)], default_subject: null, projects: [String(open.project.id)] },
      });
      expect(ids(res.linked.subjects)).toEqual(sorted([o0.id, o1.id]));
      expect(ids(res.linked.projects)).toEqual([open.project.id]);
      expect(ids((await api.get(`/subjects?collection_id=${collection.id}`, { token })).body.subjects)).toEqual(sorted([o0.id, o1.id]));
      expect((await api.get(`/collections?subject_id=${hidden.id}`, { token })).body.collections).toEqual([]);
    }
    expect(ids((await api.get(`/subjects?collection_id=${collection.id}`, { token: owner.token })).body.subjects)).toEqual(
      sorted([o0.id, o1.id, hidden.id]),
    );
  });
});

describe("subjects?collection_id", () => {
  it("lists the subjects of collections the caller may see (one or several), and nothing of others", async () => {
    const { subjects } = await projectWithSubjects(4);
    const [s0, s1, s2, s3] = subjects;
    const cast = await collectionCast({ private: true, subjectIds: [s0.id, s1.id] });
    const open = await createCollection({ userId: cast.owner.user.id }, { subjectIds: [s2.id] });
    // The decision engine's add_subject_to_collection effect writes the row with its own statement.
    await db().$executeRawUnsafe(
      `INSERT INTO collection_subjects (collection_id, subject_id) SELECT id, $2 FROM collections WHERE id = $1 ON CONFLICT DO NOTHING`,
      open.id,
      s3.id,
    );
    const list = async (query: string, token?: string) => {
      const res = await api.get(`/subjects?${query}`, { token });
      expect(res.status, query).toBe(200);
      return ids(res.body.subjects);
    };
    expect(await list(`collection_id=${cast.collection.id}`, cast.viewer.token)).toEqual(sorted([s0.id, s1.id]));
    expect(await list(`collection_id=${cast.collection.id}`, cast.stranger.token)).toEqual([]);
    expect(await list(`collection_id=${cast.collection.id}`)).toEqual([]);
    expect(await list(`collection_id=${open.id}`)).toEqual(sorted([s2.id, s3.id]));
    expect(await list(`collection_id=${cast.collection.id},${open.id}`, cast.stranger.token)).toEqual(sorted([s2.id, s3.id]));
    expect(await list(`collection_id=${cast.collection.id},${open.id}`, cast.owner.token)).toEqual(sorted([s0.id, s1.id, s2.id, s3.id]));
    expect(await list(`collection_id=99999999`)).toEqual([]);
    expect((await api.get(`/collections/${open.id}`)).body.collections[0].links.subjects).toEqual([String(s3.id), String(s2.id)]);
    const bad = await api.get(`/subjects?collection_id=abc`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].message).toMatch(/collection_id/);
  });

  it("refuses (422) to list a collection beyond the largest it can filter by", async () => {
    const owner = await signedInUser();
    const huge = await createCollection({ userId: owner.user.id });
    // Rows naming subjects that do not exist (collection_subjects has no foreign key): the cap counts rows.
    await db().$executeRawUnsafe(
      `INSERT INTO collection_subjects (collection_id, subject_id) SELECT $1, 2000000000 - n FROM generate_series(0, $2) AS n`,
      huge.id,
      MAX_LISTABLE_COLLECTION_SUBJECTS,
    );
    const res = await api.get(`/subjects?collection_id=${huge.id}`);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].message).toMatch(/more than 30000 subjects/);
    // The collection itself still serializes (its deleted subjects are not listed).
    expect((await api.get(collectionPath(huge.id))).body.collections[0].links.subjects).toEqual([]);
  });
});

describe("collections: create", () => {
  it("defaults name, slug, owner and flags, gives the owner its role, and links projects and subjects", async () => {
    const user = await signedInUser();
    const { project, subjects } = await projectWithSubjects(2);
    const res = await api.post("/collections", { collections: { display_name: "My Fav Things" } }, { token: user.token });
    expect(res.status).toBe(201);
    const record = res.body.collections[0];
    expect(record).toMatchObject({
      name: "my_fav_things",
      display_name: "My Fav Things",
      slug: `${user.user.login}/my-fav-things`,
      private: false,
      favorite: false,
      description: "",
      default_subject_src: null,
    });
    expect(record.links.owner).toEqual({
      id: String(user.user.id),
      display_name: user.user.displayName,
      type: "users",
      href: `/users/${user.user.id}`,
    });
    const role = await db().collectionRole.findUniqueOrThrow({
      where: { collectionId_userId: { collectionId: Number(record.id), userId: user.user.id } },
    });
    expect(role.roles).toEqual(["owner"]);
    expect(record.links.collection_roles).toEqual([String(role.id)]);

    const full = await api.post(
      "/collections",
      {
        collections: {
          display_name: "Stars",
          name: "my_stars",
          private: true,
          description: "Bright ones",
          links: {
            projects: [String(project.id)],
            subjects: subjects.map((s) => String(s.id)),
            default_subject: String(subjects[0].id),
            owner: { id: String(user.user.id), type: "users" },
          },
        },
      },
      { token: user.token },
    );
    expect(full.status).toBe(201);
    expect(full.body.collections[0]).toMatchObject({
      name: "my_stars",
      slug: `${user.user.login}/my-stars`,
      private: true,
      description: "Bright ones",
      default_subject_src: "https://example.test/0.png",
      links: { projects: [String(project.id)], default_subject: String(subjects[0].id) },
    });
    expect(sorted(full.body.collections[0].links.subjects.map(Number))).toEqual(sorted(subjects.map((s) => s.id)));

    // links.project (singular, as the official clients send it) and an owner given as a bare id.
    const single = await api.post(
      "/collections",
      { collections: { display_name: "Moons", links: { project: project.id, owner: String(user.user.id) } } },
      { token: user.token },
    );
    expect(single.status).toBe(201);
    expect(single.body.collections[0].links.projects).toEqual([String(project.id)]);
  });

  it("lets a group admin create for the group (no owner role) and an admin for anyone", async () => {
    const groupAdmin = await signedInUser();
    const member = await signedInUser();
    const admin = await signedInUser({ admin: true });
    const somebody = await signedInUser();
    const group = await createGroupOwnedBy(groupAdmin.user.id, { private: true });
    await addGroupMember(group.id, member.user.id);
    const res = await api.post(
      "/collections",
      { collections: { display_name: "Our Finds", private: true, links: { owner: { id: String(group.id), type: "user_groups" } } } },
      { token: groupAdmin.token },
    );
    expect(res.status).toBe(201);
    const record = res.body.collections[0];
    expect(record.slug).toBe(`${group.name.toLowerCase()}/our-finds`);
    expect(record.links.owner).toMatchObject({ id: String(group.id), type: "user_groups" });
    expect(await db().collectionRole.count({ where: { collectionId: Number(record.id) } })).toBe(0);
    expect((await api.get(collectionPath(Number(record.id)), { token: member.token })).status).toBe(200);

    const forSomebody = await api.post(
      "/collections",
      { collections: { display_name: "Given", links: { owner: { id: String(somebody.user.id), type: "users" } } } },
      { token: admin.token },
    );
    expect(forSomebody.status).toBe(201);
    expect(forSomebody.body.collections[0].links.owner.id).toBe(String(somebody.user.id));
    const role = await db().collectionRole.findFirstOrThrow({ where: { collectionId: Number(forSomebody.body.collections[0].id) } });
    expect(role).toMatchObject({ userId: somebody.user.id, roles: ["owner"] });
  });

  it("rejects bad creates with a clear 4xx and creates nothing", async () => {
    const user = await signedInUser();
    const other = await signedInUser();
    const groupAdmin = await signedInUser();
    const memberGroup = await createGroupOwnedBy(groupAdmin.user.id, { private: false });
    await addGroupMember(memberGroup.id, user.user.id);
    const strangersGroup = await createGroupOwnedBy(groupAdmin.user.id, { private: true });
    const { project, subjects } = await projectWithSubjects(1);
    const secret = await projectWithSubjects(1, { private: true });
    await createCollection({ userId: user.user.id }, { displayName: "Taken Name" });
    const before = await db().collection.count({
      where: { OR: [{ ownerId: user.user.id }, { ownerGroupId: { in: [memberGroup.id, strangersGroup.id] } }] },
    });

    const named = (extra: object) => ({ display_name: `New ${uid()}`, ...extra });
    const cases: [string, object, number, RegExp][] = [
      ["no display_name", { name: "x" }, 422, /display_name/],
      ["blank display_name", { display_name: "   " }, 422, /display_name/],
      ["display_name too long", { display_name: "x".repeat(256) }, 422, /display_name/],
      ["display_name taken (any case)", { display_name: "taken name" }, 400, /already been taken/],
      ["favorite not a boolean", named({ favorite: "yes" }), 422, /favorite/],
      ["unknown attribute", named({ colour: "red" }), 422, /colour/],
      ["unknown link", named({ links: { workflows: ["1"] } }), 422, /workflows/],
      [
        "project and projects",
        named({ links: { project: String(project.id), projects: [String(project.id)] } }),
        422,
        /must not be set together/,
      ],
      ["private project", named({ links: { projects: [String(secret.project.id)] } }), 422, /links\.projects/],
      ["unknown project", named({ links: { project: "99999999" } }), 422, /links\.project/],
      [
        "invisible subject",
        named({ links: { subjects: [String(subjects[0].id), String(secret.subjects[0].id)] } }),
        422,
        new RegExp(`${secret.subjects[0].id}`),
      ],
      ["malformed subject id", named({ links: { subjects: ["abc"] } }), 422, /links\.subjects/],
      ["invisible default subject", named({ links: { default_subject: String(secret.subjects[0].id) } }), 422, /default_subject/],
      ["another user as owner", named({ links: { owner: { id: String(other.user.id), type: "users" } } }), 403, /yourself/],
      ["another user's id as owner", named({ links: { owner: String(other.user.id) } }), 403, /yourself/],
      ["a group it only belongs to", named({ links: { owner: { id: String(memberGroup.id), type: "user_groups" } } }), 403, /administer/],
      [
        "a private group of strangers",
        named({ links: { owner: { id: String(strangersGroup.id), type: "user_groups" } } }),
        422,
        /no user group/,
      ],
      ["an owner of another type", named({ links: { owner: { id: "1", type: "projects" } } }), 422, /owner/],
    ];
    for (const [name, record, status, message] of cases) {
      const res = await api.post("/collections", { collections: record }, { token: user.token });
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toMatch(message);
    }
    expect(
      await db().collection.count({
        where: { OR: [{ ownerId: user.user.id }, { ownerGroupId: { in: [memberGroup.id, strangersGroup.id] } }] },
      }),
    ).toBe(before);
    expect((await api.post("/collections", { collections: { display_name: "Anon" } })).status).toBe(401);
  });
});

describe("collections: favourites", () => {
  it("supports the official front end's favourites flow, one favourites collection per owner and project", async () => {
    const volunteer = await signedInUser();
    const { project, subjects } = await projectWithSubjects(3);
    const [s0, s1, s2] = subjects;
    const token = volunteer.token;
    // useUserFavourites / fetchFavourites
    const find = () =>
      api.get(`/collections?favorite=true&project_ids=${project.id}&owner=${volunteer.user.login}&http_cache=true`, { token });
    expect((await find()).body.collections).toEqual([]);

    // createFavourites: lib-panoptes-js collections.create with a singular project link and no subjects
    const created = await api.post(
      "/collections",
      {
        collections: {
          display_name: `Favorites ${project.slug}`,
          favorite: true,
          private: true,
          links: { subjects: [], project: String(project.id) },
        },
      },
      { token },
    );
    expect(created.status).toBe(201);
    const favourites = created.body.collections[0];
    expect(favourites).toMatchObject({ favorite: true, private: true, links: { projects: [String(project.id)], subjects: [] } });
    expect(ids((await find()).body.collections)).toEqual([Number(favourites.id)]);

    // addFavourites: POST links/subjects answers the collection
    const added = await api.post(`/collections/${favourites.id}/links/subjects`, { subjects: [String(s0.id)] }, { token });
    expect(added.status).toBe(200);
    expect(added.body.collections[0].links.subjects).toEqual([String(s0.id)]);
    expect(
      (await api.post(`/collections/${favourites.id}/links/subjects`, { subjects: [String(s1.id), String(s2.id)] }, { token })).status,
    ).toBe(200);

    // A second favourites collection for the project, in the brief's shape, names the first.
    const second = await api.post(
      "/collections",
      {
        collections: {
          favorite: true,
          display_name: `Favorites again ${uid()}`,
          links: { projects: [String(project.id)], subjects: [String(s1.id)], owner: { id: String(volunteer.user.id), type: "users" } },
        },
      },
      { token },
    );
    expect(second.status).toBe(400);
    expect(second.body.errors[0].message).toContain(`collections/${favourites.id}`);
    expect((await api.get(`/collections?favorite=true&owner=${volunteer.user.login}`, { token })).body.collections).toHaveLength(1);

    // removeFavourites: DELETE links/subjects/<ids> answers 204
    const removed = await api.delete(`/collections/${favourites.id}/links/subjects/${s0.id},${s2.id}`, { token });
    expect(removed.status).toBe(204);
    expect(await collectionSubjectIds(Number(favourites.id))).toEqual([s1.id]);
    expect(await db().subject.count({ where: { id: { in: [s0.id, s2.id] } } })).toBe(2);

    // Other projects, other users and non-favourite collections are not limited.
    const other = await createProject(volunteer.user.id);
    const friend = await signedInUser();
    const allowed: [string, object, string][] = [
      [
        "favourites of another project",
        { favorite: true, display_name: `Favorites ${uid()}`, links: { projects: [String(other.id)] } },
        token,
      ],
      ["a plain collection of the project", { display_name: `Plain ${uid()}`, links: { project: String(project.id) } }, token],
      [
        "another user's favourites",
        { favorite: true, display_name: `Favorites ${project.slug}`, links: { project: String(project.id) } },
        friend.token,
      ],
    ];
    for (const [name, record, as] of allowed)
      expect((await api.post("/collections", { collections: record }, { token: as })).status, name).toBe(201);
  });
});

describe("collections: edit and destroy", () => {
  it("lets the owner, collaborators, group admins and admins edit; others who see it get 403", async () => {
    const cast = await collectionCast({ private: true });
    const table: [string, string | undefined, number][] = [
      ["owner", cast.owner.token, 200],
      ["collaborator", cast.collaborator.token, 200],
      ["admin", cast.admin.token, 200],
      ["contributor", cast.contributor.token, 403],
      ["viewer", cast.viewer.token, 403],
      ["another user", cast.stranger.token, 404],
      ["anonymous", undefined, 401],
    ];
    for (const [who, token, status] of table) {
      const tag = await etagAs(collectionPath(cast.collection.id), token);
      const res = await api.put(
        collectionPath(cast.collection.id),
        { collections: { description: `edited by ${who}` } },
        { token, headers: { "if-match": tag } },
      );
      expect(res.status, who).toBe(status);
      if (status !== 200) expect(res.body.errors[0].message, who).toBeTruthy();
    }
    expect((await db().collection.findUniqueOrThrow({ where: { id: cast.collection.id } })).description).toBe("edited by admin");
  });

  it("edits names (the slug follows the name), replaces subjects as the editor sees them, and sets the default subject", async () => {
    const owner = await signedInUser();
    const collaborator = await signedInUser();
    const open = await projectWithSubjects(3);
    const secret = await projectWithSubjects(1, { private: true });
    await grantProjectRole(secret.project.id, owner.user.id, ["tester"]);
    const [s0, s1, s2] = open.subjects;
    const [hidden] = secret.subjects;
    const collection = await createCollection(
      { userId: owner.user.id },
      { subjectIds: [s0.id, s1.id, hidden.id], defaultSubjectId: s0.id },
    );
    await grantCollectionRole(collection.id, collaborator.user.id, ["collaborator"]);
    const put = async (token: string, record: object) =>
      api.put(
        collectionPath(collection.id),
        { collections: record },
        { token, headers: { "if-match": await etagAs(collectionPath(collection.id), token) } },
      );

    const renamed = await put(owner.token, { name: "shiny_things", display_name: "Shiny Things", private: true, description: "All shiny" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.collections[0]).toMatchObject({
      name: "shiny_things",
      display_name: "Shiny Things",
      slug: `${owner.user.login}/shiny-things`,
      private: true,
      description: "All shiny",
    });

    // The collaborator cannot see the hidden subject: it stays; s0, the default, is removed (not destroyed) and the default cleared.
    const replaced = await put(collaborator.token, { links: { subjects: [String(s1.id), String(s2.id)] } });
    expect(replaced.status).toBe(200);
    expect(sorted(replaced.body.collections[0].links.subjects.map(Number))).toEqual(sorted([s1.id, s2.id]));
    expect(replaced.body.collections[0].links.default_subject).toBeNull();
    expect(await collectionSubjectIds(collection.id)).toEqual(sorted([s1.id, s2.id, hidden.id]));
    expect(await db().subject.count({ where: { id: s0.id } })).toBe(1);

    const withDefault = await put(collaborator.token, { links: { default_subject: String(s2.id) } });
    expect(withDefault.body.collections[0]).toMatchObject({
      default_subject_src: "https://example.test/2.png",
      links: { default_subject: String(s2.id) },
    });
    const cleared = await put(owner.token, { links: { default_subject: null } });
    expect(cleared.body.collections[0].links.default_subject).toBeNull();
    expect(cleared.body.collections[0].default_subject_src).not.toBeNull();
  });

  it("rejects bad edits with a clear 4xx and changes nothing", async () => {
    const owner = await signedInUser();
    const { project, subjects } = await projectWithSubjects(2);
    const secret = await projectWithSubjects(1, { private: true });
    await createCollection({ userId: owner.user.id }, { displayName: "Other Name" });
    const collection = await createCollection(
      { userId: owner.user.id },
      { subjectIds: [subjects[0].id], defaultSubjectId: subjects[0].id, projectIds: [project.id] },
    );
    const before = await db().collection.findUniqueOrThrow({ where: { id: collection.id } });
    const tag = await etagAs(collectionPath(collection.id), owner.token);
    const cases: [string, object, number, RegExp][] = [
      ["favorite is set only at creation", { favorite: true }, 422, /favorite/],
      ["the owner cannot change", { links: { owner: String(owner.user.id) } }, 422, /owner/],
      ["projects cannot change", { links: { projects: [String(project.id)] } }, 422, /projects/],
      ["invisible subject", { links: { subjects: [String(subjects[1].id), String(secret.subjects[0].id)] } }, 422, /links\.subjects/],
      ["malformed subject id", { links: { subjects: ["1.5"] } }, 422, /links\.subjects/],
      ["invisible default subject", { links: { default_subject: String(secret.subjects[0].id) } }, 422, /default_subject/],
      ["several default subjects", { links: { default_subject: [String(subjects[1].id)] } }, 422, /default_subject/],
      ["blank display_name", { display_name: "" }, 422, /display_name/],
      [
        "display_name of another of the owner's collections",
        { display_name: "OTHER NAME", links: { subjects: [] } },
        400,
        /already been taken/,
      ],
      ["name too long", { name: "n".repeat(256) }, 422, /name/],
      ["description not a string", { description: 5 }, 422, /description/],
    ];
    for (const [name, record, status, message] of cases) {
      const res = await api.put(
        collectionPath(collection.id),
        { collections: record },
        { token: owner.token, headers: { "if-match": tag } },
      );
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toMatch(message);
    }
    expect(await db().collection.findUniqueOrThrow({ where: { id: collection.id } })).toEqual(before);
    expect(await collectionSubjectIds(collection.id)).toEqual([subjects[0].id]);
  });

  it("lets the owner, collaborators, group admins and admins destroy; subjects survive", async () => {
    const cast = await collectionCast({ private: true });
    const groupAdmin = await signedInUser();
    const member = await signedInUser();
    const group = await createGroupOwnedBy(groupAdmin.user.id);
    await addGroupMember(group.id, member.user.id);
    const { subjects } = await projectWithSubjects(1);
    const fresh = async () => {
      const c = await createCollection({ userId: cast.owner.user.id }, { private: true, subjectIds: [subjects[0].id] });
      for (const [who, roles] of [
        [cast.collaborator, ["collaborator"]],
        [cast.contributor, ["contributor"]],
        [cast.viewer, ["viewer"]],
      ] as const)
        await grantCollectionRole(c.id, who.user.id, [...roles]);
      return c;
    };
    const destroy = async (id: number, token?: string) =>
      api.delete(collectionPath(id), { token, headers: { "if-match": await etagAs(collectionPath(id), token) } });
    const refused: [string, string | undefined, number][] = [
      ["contributor", cast.contributor.token, 403],
      ["viewer", cast.viewer.token, 403],
      ["another user", cast.stranger.token, 404],
      ["anonymous", undefined, 401],
    ];
    for (const [who, token, status] of refused) expect((await destroy(cast.collection.id, token)).status, who).toBe(status);
    expect(await db().collection.count({ where: { id: cast.collection.id } })).toBe(1);

    for (const [who, token] of [
      ["owner", cast.owner.token],
      ["collaborator", cast.collaborator.token],
      ["admin", cast.admin.token],
    ] as const) {
      const c = await fresh();
      expect((await destroy(c.id, token)).status, who).toBe(204);
      expect(await db().collection.count({ where: { id: c.id } }), who).toBe(0);
      expect(await db().collectionRole.count({ where: { collectionId: c.id } }), who).toBe(0);
    }
    const groupOwned = await createCollection({ groupId: group.id });
    expect((await destroy(groupOwned.id, member.token)).status).toBe(403);
    expect((await destroy(groupOwned.id, groupAdmin.token)).status).toBe(204);
    expect(await db().subject.count({ where: { id: subjects[0].id } })).toBe(1);
  });
});

describe("collections: link endpoints", () => {
  it("adds subjects (owner, collaborators, contributors), refusing duplicates and subjects the caller cannot see", async () => {
    const { subjects } = await projectWithSubjects(6);
    const secret = await projectWithSubjects(1, { private: true });
    const cast = await collectionCast({ private: true });
    const id = cast.collection.id;
    const add = (token: string | undefined, body: unknown) => api.post(`${collectionPath(id)}/links/subjects`, body, { token });
    const etag = await etagAs(collectionPath(id), cast.owner.token);

    const allowed: [string, TestUser, unknown, number[]][] = [
      ["owner, several", cast.owner, { subjects: [String(subjects[0].id), subjects[1].id] }, [subjects[0].id, subjects[1].id]],
      ["collaborator, one id not in a list", cast.collaborator, { subjects: String(subjects[2].id) }, [subjects[2].id]],
      ["contributor", cast.contributor, { subjects: [String(subjects[3].id)] }, [subjects[3].id]],
      ["admin", cast.admin, { subjects: [String(subjects[4].id)] }, [subjects[4].id]],
    ];
    for (const [who, user, body, added] of allowed) {
      const res = await add(user.token, body);
      expect(res.status, who).toBe(200);
      for (const s of added) expect(res.body.collections[0].links.subjects, who).toContain(String(s));
    }
    // Each write moves the ETag.
    expect(await etagAs(collectionPath(id), cast.owner.token)).not.toBe(etag);

    const inCollection = await collectionSubjectIds(id);
    const refused: [string, string | undefined, unknown, number, RegExp][] = [
      ["viewer", cast.viewer.token, { subjects: [String(subjects[5].id)] }, 403, /contributors/],
      ["another user", cast.stranger.token, { subjects: [String(subjects[5].id)] }, 404, /collections/],
      ["anonymous", undefined, { subjects: [String(subjects[5].id)] }, 401, /signed in/],
      [
        "already in the collection",
        cast.owner.token,
        { subjects: [String(subjects[5].id), String(subjects[0].id)] },
        400,
        new RegExp(`${subjects[0].id} is already in the collection`),
      ],
      ["a subject the caller cannot see", cast.owner.token, { subjects: [String(secret.subjects[0].id)] }, 422, /no subject/],
      ["an unknown subject", cast.owner.token, { subjects: ["99999999"] }, 422, /no subject/],
      ["no subjects", cast.owner.token, { subjects: [] }, 422, /at least one/],
      ["a malformed id", cast.owner.token, { subjects: ["x"] }, 422, /subjects/],
      ["another body key", cast.owner.token, { subject: [String(subjects[5].id)] }, 422, /subject/],
      ["an extra body key", cast.owner.token, { subjects: [String(subjects[5].id)], more: 1 }, 422, /more/],
    ];
    for (const [name, token, body, status, message] of refused) {
      const res = await add(token, body);
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toMatch(message);
    }
    const unknownLink = await api.post(`${collectionPath(id)}/links/projects`, { projects: ["1"] }, { token: cast.owner.token });
    expect(unknownLink.status).toBe(422);
    expect(unknownLink.body.errors[0].message).toMatch(/subjects, default_subject/);
    expect(await collectionSubjectIds(id)).toEqual(inCollection);
  });

  it("removes subjects (owner, collaborators) and clears the default subject when it goes", async () => {
    const { subjects } = await projectWithSubjects(4);
    const [s0, s1, s2, s3] = subjects;
    const cast = await collectionCast({ private: true, subjectIds: [s0.id, s1.id, s2.id, s3.id] });
    const id = cast.collection.id;
    await db().collection.update({ where: { id }, data: { defaultSubjectId: s1.id } });
    const remove = (token: string | undefined, list: string, link = "subjects") =>
      api.delete(`${collectionPath(id)}/links/${link}/${list}`, { token });

    const refused: [string, Promise<{ status: number; body: any }>, number][] = [
      ["contributor", remove(cast.contributor.token, `${s0.id}`), 403],
      ["viewer", remove(cast.viewer.token, `${s0.id}`), 403],
      ["another user", remove(cast.stranger.token, `${s0.id}`), 404],
      ["anonymous", remove(undefined, `${s0.id}`), 401],
      ["malformed ids", remove(cast.owner.token, `${s0.id},abc`), 422],
      ["unknown link", remove(cast.owner.token, `${s0.id}`, "default_subject"), 422],
    ];
    for (const [name, p, status] of refused) {
      const res = await p;
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toBeTruthy();
    }
    expect(await collectionSubjectIds(id)).toEqual(sorted([s0.id, s1.id, s2.id, s3.id]));

    expect((await remove(cast.collaborator.token, `${s0.id}`)).status).toBe(204);
    expect((await db().collection.findUniqueOrThrow({ where: { id } })).defaultSubjectId).toBe(s1.id);
    // Ids not in the collection are ignored; the default subject among the removed ones is cleared.
    expect((await remove(cast.owner.token, `${s1.id},${s2.id},99999999`)).status).toBe(204);
    expect(await collectionSubjectIds(id)).toEqual([s3.id]);
    expect((await db().collection.findUniqueOrThrow({ where: { id } })).defaultSubjectId).toBeNull();
    expect(await db().subject.count({ where: { id: { in: [s0.id, s1.id, s2.id] } } })).toBe(3);
  });

  it("sets the default subject (editors), null leaving the thumbnail to the first subject", async () => {
    const { subjects } = await projectWithSubjects(3);
    const [s0, s1, s2] = subjects;
    const secret = await projectWithSubjects(1, { private: true });
    const cast = await collectionCast({ private: false, subjectIds: [s0.id, s1.id] });
    const id = cast.collection.id;
    const setDefault = (token: string | undefined, body: unknown) =>
      api.post(`${collectionPath(id)}/links/default_subject`, body, { token });

    const set = await setDefault(cast.owner.token, { default_subject: String(s0.id) });
    expect(set.status).toBe(200);
    expect(set.body.collections[0]).toMatchObject({
      default_subject_src: "https://example.test/0.png",
      links: { default_subject: String(s0.id) },
    });
    // Any subject the editor may see will do, as on the reference platform.
    expect((await setDefault(cast.collaborator.token, { default_subject: s2.id })).body.collections[0].links.default_subject).toBe(
      String(s2.id),
    );

    const refused: [string, string | undefined, unknown, number][] = [
      ["contributor", cast.contributor.token, { default_subject: String(s1.id) }, 403],
      ["viewer", cast.viewer.token, { default_subject: String(s1.id) }, 403],
      ["another user", cast.stranger.token, { default_subject: String(s1.id) }, 403],
      ["anonymous", undefined, { default_subject: String(s1.id) }, 401],
      ["invisible subject", cast.owner.token, { default_subject: String(secret.subjects[0].id) }, 422],
      ["a list", cast.owner.token, { default_subject: [String(s1.id)] }, 422],
      ["missing key", cast.owner.token, {}, 422],
    ];
    for (const [name, token, body, status] of refused) {
      const res = await setDefault(token, body);
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toBeTruthy();
    }
    expect((await db().collection.findUniqueOrThrow({ where: { id } })).defaultSubjectId).toBe(s2.id);

    const cleared = await setDefault(cast.owner.token, { default_subject: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.collections[0]).toMatchObject({
      default_subject_src: "https://example.test/1.png",
      links: { default_subject: null },
    });
  });
});

describe("collections: roles and preferences alongside", () => {
  it("includes only the roles the caller may see", async () => {
    const cast = await collectionCast({ private: false });
    const count = async (token?: string) => {
      const res = await api.get(`${collectionPath(cast.collection.id)}?include=collection_roles`, { token });
      return (res.body.linked.collection_roles as { id: string }[]).length;
    };
    expect(await count(cast.owner.token)).toBe(4);
    expect(await count(cast.collaborator.token)).toBe(4);
    expect(await count(cast.admin.token)).toBe(4);
    expect(await count(cast.viewer.token)).toBe(1);
    expect(await count(cast.stranger.token)).toBe(0);
    expect(await count()).toBe(0);
  });

  it("addToCollection orders subjects newest first", async () => {
    const owner = await signedInUser();
    const { subjects } = await projectWithSubjects(3);
    const c = await createCollection({ userId: owner.user.id });
    await addToCollection(c.id, [subjects[2].id, subjects[0].id, subjects[1].id]);
    expect((await api.get(collectionPath(c.id))).body.collections[0].links.subjects).toEqual(
      [subjects[1].id, subjects[0].id, subjects[2].id].map(String),
    );
  });
});
