import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { createProject, createSubjectSet, createWorkflow, grantProjectRole, signedInUser } from "@/test/factories";
import { resourceContract } from "@/test/resource-contract";

resourceContract({
  type: "subject_sets",
  async setup() {
    const owner = await signedInUser();
    const reader = await signedInUser();
    const stranger = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    await grantProjectRole(project.id, reader.user.id, ["scientist"]);
    const { set } = await createSubjectSet(project.id, 2);
    return { id: set.id, writer: owner.token, reader: reader.token, stranger: stranger.token };
  },
  async seedMany(n) {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    for (let i = 0; i < n; i++) await createSubjectSet(project.id, 0);
    return { query: `project_id=${project.id}`, token: owner.token };
  },
  async createRecord() {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    return { record: { display_name: "Season 1", metadata: { season: 1 }, links: { project: String(project.id) } }, token: owner.token };
  },
  update: { display_name: "Season 2", metadata: { season: 2 } },
  invalidUpdate: { metadata: "x" },
  async privateRecord() {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    const { set } = await createSubjectSet(project.id, 1);
    return { id: set.id, insider: owner.token, stranger: stranger.token };
  },
  destroy: true,
  strangerEditStatus: 404,
  includes: [],
  sortable: ["display_name", "created_at", "set_member_subjects_count"],
});

describe("subject sets: membership", () => {
  it("adds and removes subjects with exact counts; foreign subjects are 422", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const other = await createProject(owner.user.id);
    const { subjects } = await createSubjectSet(project.id, 4);
    const { subjects: foreign } = await createSubjectSet(other.id, 1);
    const created = await api.post(
      "/subject_sets",
      { subject_sets: { display_name: "Mixed", links: { project: String(project.id), subjects: [subjects[0].id, subjects[1].id] } } },
      { token: owner.token },
    );
    expect(created.status).toBe(201);
    const id = created.body.subject_sets[0].id;
    expect(created.body.subject_sets[0].set_member_subjects_count).toBe(2);
    const add = await api.post(
      `/subject_sets/${id}/links/subjects`,
      { subjects: [subjects[1].id, subjects[2].id, subjects[3].id] },
      { token: owner.token },
    );
    expect(add.status).toBe(200);
    expect(add.body.subject_sets[0].set_member_subjects_count).toBe(4);
    expect((await api.post(`/subject_sets/${id}/links/subjects`, { subjects: [foreign[0].id] }, { token: owner.token })).status).toBe(422);
    expect(
      (await api.delete(`/subject_sets/${id}/links/subjects/${subjects[0].id},${subjects[1].id},99999`, { token: owner.token })).status,
    ).toBe(204);
    expect((await api.get(`/subject_sets/${id}`)).body.subject_sets[0].set_member_subjects_count).toBe(2);
    expect(await db().setMemberSubject.count({ where: { subjectSetId: Number(id) } })).toBe(2);
    expect((await api.get(`/subjects?subject_set_id=${id}`)).body.subjects).toHaveLength(2);
    const tester = await signedInUser();
    await grantProjectRole(project.id, tester.user.id, ["tester"]);
    expect((await api.post(`/subject_sets/${id}/links/subjects`, { subjects: [subjects[0].id] }, { token: tester.token })).status).toBe(
      403,
    );
  });

  it("links to workflows; a project linking another project's set gets a copy", async () => {
    const owner = await signedInUser();
    const a = await createProject(owner.user.id);
    const b = await createProject(owner.user.id);
    const w = await createWorkflow(a.id);
    const { set } = await createSubjectSet(b.id, 3);
    const { set: own } = await createSubjectSet(a.id, 1);
    const linked = await api.post(`/subject_sets/${own.id}/links/workflows`, { workflows: [String(w.id)] }, { token: owner.token });
    expect(linked.body.subject_sets[0].links.workflows).toEqual([String(w.id)]);
    const res = await api.post(`/projects/${a.id}/links/subject_sets`, { subject_sets: [String(set.id)] }, { token: owner.token });
    expect(res.status).toBe(200);
    const setIds = res.body.projects[0].links.subject_sets;
    expect(setIds).toHaveLength(2);
    const copyId = setIds.find((id: string) => id !== String(own.id));
    const copy = (await api.get(`/subject_sets/${copyId}`)).body.subject_sets[0];
    expect(copy).toMatchObject({ set_member_subjects_count: 3, links: { project: String(a.id) } });
    expect((await api.get(`/subject_sets/${set.id}`)).body.subject_sets[0].links.project).toBe(String(b.id));
    // Sets of projects one does not edit cannot be linked.
    const stranger = await signedInUser();
    const strangerProject = await createProject(stranger.user.id);
    expect(
      (await api.post(`/projects/${strangerProject.id}/links/subject_sets`, { subject_sets: [set.id] }, { token: stranger.token })).status,
    ).toBe(422);
    // Workflows can be linked to their own project only; unlinking deletes the workflow.
    expect((await api.post(`/projects/${b.id}/links/workflows`, { workflows: [w.id] }, { token: owner.token })).status).toBe(422);
    expect((await api.delete(`/projects/${a.id}/links/workflows/${w.id}`, { token: owner.token })).status).toBe(204);
    expect((await api.get(`/workflows/${w.id}`)).status).toBe(404);
  });
});
