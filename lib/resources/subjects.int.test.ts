import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { createProject, createSubjectSet, grantProjectRole, signedInUser } from "@/test/factories";
import { resourceContract } from "@/test/resource-contract";

resourceContract({
  type: "subjects",
  keyset: true,
  async setup() {
    const owner = await signedInUser();
    const reader = await signedInUser();
    const stranger = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    await grantProjectRole(project.id, reader.user.id, ["moderator"]);
    const { subjects } = await createSubjectSet(project.id, 1);
    return { id: subjects[0].id, writer: owner.token, reader: reader.token, stranger: stranger.token };
  },
  async seedMany(n) {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    await createSubjectSet(project.id, n);
    return { query: `project_id=${project.id}`, token: owner.token };
  },
  async createRecord() {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    return {
      record: {
        locations: [{ "image/jpeg": "https://example.test/a.jpg" }],
        metadata: { name: "a" },
        links: { project: String(project.id) },
      },
      token: owner.token,
    };
  },
  update: { metadata: { name: "renamed", "#priority": "2" } },
  invalidUpdate: { metadata: ["x"] },
  async privateRecord() {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    const { subjects } = await createSubjectSet(project.id, 1);
    return { id: subjects[0].id, insider: owner.token, stranger: stranger.token };
  },
  destroy: true,
  strangerEditStatus: 404,
  includes: [],
  sortable: ["created_at", "updated_at"],
});

describe("subjects: create and counters", () => {
  it("creates into sets, keeps project, set and uploader counters exact, and enforces subject_limit", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const { set } = await createSubjectSet(project.id, 0);
    const body = (n: number) => ({
      subjects: {
        locations: [{ "image/png": `https://example.test/${n}.png` }],
        metadata: { n },
        links: { project: String(project.id), subject_sets: [String(set.id)] },
      },
    });
    const res = await api.post("/subjects", body(1), { token: owner.token });
    expect(res.status).toBe(201);
    expect(res.body.subjects[0]).toMatchObject({
      locations: [{ "image/png": "https://example.test/1.png" }],
      metadata: { n: 1 },
      links: { project: String(project.id), subject_sets: [String(set.id)] },
    });
    expect((await db().subjectSet.findUniqueOrThrow({ where: { id: set.id } })).setMemberSubjectsCount).toBe(1);
    expect((await db().project.findUniqueOrThrow({ where: { id: project.id } })).subjectsCount).toBe(1);
    expect((await db().user.findUniqueOrThrow({ where: { id: owner.user.id } })).uploadedSubjectsCount).toBe(1);
    await db().user.update({ where: { id: owner.user.id }, data: { subjectLimit: 1 } });
    expect((await api.post("/subjects", body(2), { token: owner.token })).status).toBe(403);
    await db().user.update({ where: { id: owner.user.id }, data: { subjectLimit: null } });

    const bad: [string, object][] = [
      ["bad mime", { ...body(3).subjects, locations: ["application/x-evil"] }],
      ["no locations", { ...body(3).subjects, locations: [] }],
      ["two mimes in one entry", { ...body(3).subjects, locations: [{ "image/png": "https://a", "image/jpeg": "https://b" }] }],
      ["javascript url", { ...body(3).subjects, locations: [{ "image/png": "javascript:alert(1)" }] }],
      ["foreign set", { ...body(3).subjects, links: { project: String(project.id), subject_sets: ["99999999"] } }],
    ];
    for (const [name, record] of bad)
      expect((await api.post("/subjects", { subjects: record }, { token: owner.token })).status, name).toBe(422);
    const id = res.body.subjects[0].id;
    const etag = (await api.get(`/subjects/${id}`)).headers.get("etag")!;
    expect((await api.delete(`/subjects/${id}`, { token: owner.token, headers: { "if-match": etag } })).status).toBe(204);
    expect((await db().subjectSet.findUniqueOrThrow({ where: { id: set.id } })).setMemberSubjectsCount).toBe(0);
    expect((await db().project.findUniqueOrThrow({ where: { id: project.id } })).subjectsCount).toBe(0);
  });
});
