import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { createProject, createUser, signedInUser } from "@/test/factories";
import { createCollection } from "@/test/factories-collections";

// What one request can make the server load and send is bounded whatever the records hold: an include
// answers at most 100 linked records per primary record and 1,000 in all; a page of collections lists at
// most 30,000 subject ids in its links, shared among its collections. What was left out is named in
// meta.truncated with the list that pages the rest, and the links still list the ids.

/** A public project's n subjects, inserted in one statement (a few hundred bytes of metadata and location each). */
async function manySubjects(n: number) {
  const owner = await createUser();
  const project = await createProject(owner.id);
  const rows = await db().$queryRawUnsafe<{ id: number }[]>(
    `INSERT INTO subjects (project_id, upload_user_id, metadata, locations)
     SELECT $1, $2, jsonb_build_object('name', 'Subject number ' || g, 'filename', 'image_' || g || '.jpg', 'site', 'North ridge camera 4'),
            jsonb_build_array(jsonb_build_object('image/jpeg', 'https://uploads.example.test/subject_location/' || md5(g::text) || '.jpeg'))
     FROM generate_series(1, $3) g RETURNING id`,
    project.id,
    owner.id,
    n,
  );
  return { owner, ids: rows.map((r) => r.id) };
}

/** Public collections of one owner, each holding `subjectIds` (added in that order, so listed newest = last first). */
async function collectionsHolding(count: number, subjectIds: (i: number) => number[]) {
  const owner = await signedInUser();
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const c = await createCollection({ userId: owner.user.id }, { private: false });
    const subjects = subjectIds(i);
    await db().$executeRawUnsafe(
      `INSERT INTO collection_subjects (collection_id, subject_id, created_at)
       SELECT $1, s, timestamp '2026-01-01' + make_interval(secs => o) FROM unnest($2::int[]) WITH ORDINALITY AS u(s, o)`,
      c.id,
      subjects,
    );
    ids.push(c.id);
  }
  return { owner, ids };
}

const newestFirst = (ids: number[]) => [...ids].reverse().map(String);

describe("include and link caps", () => {
  it("answers the issue's 3 collections of 10,000 subjects with their subjects included in bounded size", async () => {
    const { ids } = await manySubjects(30_000);
    const { ids: collections } = await collectionsHolding(3, (i) => ids.slice(i * 10_000, (i + 1) * 10_000));
    const started = performance.now();
    const res = await api.get(`/collections?id=${collections.join(",")}&include=subjects`);
    const ms = performance.now() - started;
    expect(res.status).toBe(200);
    // It was 14 MB in 3.6 s here (10.8 MB in 8.9 s in the report).
    expect(res.text.length).toBeLessThan(600_000);
    expect(ms).toBeLessThan(3000);
    expect(res.body.linked.subjects).toHaveLength(300);
    for (const [i, c] of res.body.collections.entries()) {
      // The links list every id (10,000 each is within the answer's 30,000).
      expect(c.links.subjects).toEqual(newestFirst(ids.slice(i * 10_000, (i + 1) * 10_000)));
      const included = res.body.linked.subjects.filter((s: { links: { linked: { id: string } } }) => s.links.linked.id === c.id);
      expect(included.map((s: { id: string }) => s.id)).toEqual(c.links.subjects.slice(0, 100));
    }
    expect(res.body.meta.truncated).toEqual({
      "linked.subjects": {
        records: collections.map(String),
        per_record: 100,
        per_response: 1000,
        href: "/subjects?collection_id={collections.id}",
      },
    });
    // The rest is paged through the named list.
    const rest = await api.get(`/subjects?collection_id=${collections[0]}&page_size=100&page=100`);
    expect(rest.body.meta.subjects.count).toBe(10_000);
    expect(rest.body.subjects).toHaveLength(100);
  }, 120_000);

  it("answers at most 1,000 linked records per include, naming the records left short", async () => {
    const { ids } = await manySubjects(1500);
    // 15 collections of 100 different subjects: the first ten fill the answer's 1,000.
    const { ids: collections } = await collectionsHolding(15, (i) => ids.slice(i * 100, (i + 1) * 100));
    const res = await api.get(`/collections?id=${collections.join(",")}&include=subjects&page_size=20`);
    expect(res.body.linked.subjects).toHaveLength(1000);
    expect(res.body.meta.truncated["linked.subjects"].records).toEqual(collections.slice(10).map(String));
    expect(res.body.meta.collections.count).toBe(15);
  });

  it("includes everything, with no meta.truncated, when within the caps", async () => {
    const { ids } = await manySubjects(100);
    const { ids: collections } = await collectionsHolding(2, () => ids);
    const res = await api.get(`/collections?id=${collections.join(",")}&include=subjects`);
    expect(res.body.linked.subjects).toHaveLength(100);
    expect(res.body.meta.truncated).toBeUndefined();
    const show = await api.get(`/collections/${collections[0]}?include=subjects`);
    expect(show.body.linked.subjects).toHaveLength(100);
    expect(show.body.meta).toBeUndefined();
  });

  it("lists at most 30,000 subject ids in a page of collections' links, shared among them", async () => {
    const { ids } = await manySubjects(400);
    const { owner, ids: collections } = await collectionsHolding(100, () => ids);
    const page = await api.get(`/collections?owner=${owner.user.login}&page_size=100`);
    expect(page.status).toBe(200);
    expect(page.body.collections).toHaveLength(100);
    // 30,000 / 100 collections: each lists its 300 newest subjects.
    for (const c of page.body.collections) expect(c.links.subjects).toEqual(newestFirst(ids).slice(0, 300));
    expect(page.body.meta.truncated).toEqual({
      "collections.subjects": { records: collections.map(String), per_record: 300, href: "/subjects?collection_id={collections.id}" },
    });
    // One collection lists them all.
    const one = await api.get(`/collections/${collections[0]}`);
    expect(one.body.collections[0].links.subjects).toEqual(newestFirst(ids));
    expect(one.body.meta).toBeUndefined();
    // Collections included by another resource are held to the same share.
    const roles = await api.get(`/collection_roles?collection_id=${collections.join(",")}&include=collection&page_size=100`, {
      token: owner.token,
    });
    expect(roles.body.linked.collections).toHaveLength(100);
    for (const c of roles.body.linked.collections) expect(c.links.subjects).toHaveLength(300);
    expect(roles.body.meta.truncated["collections.subjects"].records).toEqual(collections.map(String));
  }, 120_000);

  it("caps an include the generic layer loads whole (a project's roles)", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const users = await db().$queryRawUnsafe<{ id: number }[]>(
      `INSERT INTO users (login, email, display_name, encrypted_password)
       SELECT 'roles_' || $1 || '_' || g, 'roles_' || $1 || '_' || g || '@example.test', 'R', 'x' FROM generate_series(1, 150) g RETURNING id`,
      project.id,
    );
    await db().projectRole.createMany({ data: users.map((u) => ({ projectId: project.id, userId: u.id, roles: ["tester"] })) });
    const res = await api.get(`/projects/${project.id}?include=project_roles`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.linked.project_roles).toHaveLength(100);
    expect(res.body.projects[0].links.project_roles).toHaveLength(151);
    expect(res.body.meta.truncated["linked.project_roles"]).toEqual({
      records: [String(project.id)],
      per_record: 100,
      per_response: 1000,
      href: "/project_roles?project_id={projects.id}",
    });
  });
});
