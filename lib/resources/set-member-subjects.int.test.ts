// /set_member_subjects and /subject_workflow_statuses: the shared contract, who may, and the official Python
// client's own requests (SubjectSet.add / remove / subjects / subject_workflow_statuses and `subject in
// subject_set`, panoptes_client/subject_set.py) replayed with its headers.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api, call } from "@/test/http";
import { resourceContract } from "@/test/resource-contract";
import { classifiableProject, classificationBody, createProject, createSubjectSet, grantProjectRole, signedInUser } from "@/test/factories";

resourceContract({
  type: "set_member_subjects",
  keyset: true,
  async setup() {
    const [owner, reader, stranger] = [await signedInUser(), await signedInUser(), await signedInUser()];
    const project = await createProject(owner.user.id, { private: true });
    await grantProjectRole(project.id, reader.user.id, ["scientist"]);
    const { set } = await createSubjectSet(project.id, 1);
    const sms = await db().setMemberSubject.findFirstOrThrow({ where: { subjectSetId: set.id } });
    return { id: sms.id, writer: owner.token, reader: reader.token, stranger: stranger.token };
  },
  async seedMany(n) {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const { set } = await createSubjectSet(project.id, n);
    return { query: `subject_set_id=${set.id}`, token: owner.token };
  },
  async createRecord() {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const { set } = await createSubjectSet(project.id, 0);
    const { subjects } = await createSubjectSet(project.id, 1);
    return { record: { priority: 2.5, links: { subject: String(subjects[0].id), subject_set: String(set.id) } }, token: owner.token };
  },
  update: { priority: 7 },
  invalidUpdate: { priority: "high" },
  async privateRecord() {
    const [owner, stranger] = [await signedInUser(), await signedInUser()];
    const project = await createProject(owner.user.id, { private: true });
    const { set } = await createSubjectSet(project.id, 1);
    return {
      id: (await db().setMemberSubject.findFirstOrThrow({ where: { subjectSetId: set.id } })).id,
      insider: owner.token,
      stranger: stranger.token,
    };
  },
  destroy: true,
  strangerEditStatus: 404,
  includes: [],
  sortable: ["priority", "created_at"],
});

describe("set member subjects", () => {
  it("create and destroy keep the set's count; only the project's editors; a subject once per set; foreign subjects 422", async () => {
    const owner = await signedInUser();
    const volunteer = await signedInUser();
    const project = await createProject(owner.user.id);
    const { set } = await createSubjectSet(project.id, 0);
    const { subjects } = await createSubjectSet(project.id, 2);
    const { subjects: foreign } = await createSubjectSet((await createProject(owner.user.id)).id, 1);
    const body = (subject: number) => ({ set_member_subjects: { links: { subject: String(subject), subject_set: String(set.id) } } });
    expect((await api.post("/set_member_subjects", body(subjects[0].id), { token: volunteer.token })).status).toBe(403);
    const created = await api.post("/set_member_subjects", body(subjects[0].id), { token: owner.token });
    expect(created.status).toBe(201);
    expect(created.body.set_member_subjects[0]).toMatchObject({
      priority: null,
      links: { subject: String(subjects[0].id), subject_set: String(set.id) },
    });
    expect((await api.post("/set_member_subjects", body(subjects[0].id), { token: owner.token })).status).toBe(422);
    expect((await api.post("/set_member_subjects", body(foreign[0].id), { token: owner.token })).status).toBe(422);
    expect((await db().subjectSet.findUniqueOrThrow({ where: { id: set.id } })).setMemberSubjectsCount).toBe(1);
    const id = created.body.set_member_subjects[0].id;
    const etag = created.headers.get("etag")!;
    expect((await api.delete(`/set_member_subjects/${id}`, { token: volunteer.token, headers: { "if-match": etag } })).status).toBe(403);
    expect((await api.delete(`/set_member_subjects/${id}`, { token: owner.token, headers: { "if-match": etag } })).status).toBe(204);
    expect((await db().subjectSet.findUniqueOrThrow({ where: { id: set.id } })).setMemberSubjectsCount).toBe(0);
  });
});

describe("subject workflow statuses", () => {
  it("list by workflow and subject(s) with counts and retirement; read only; private projects' are 404 to outsiders", async () => {
    const { project, workflow, subjects, owner } = await classifiableProject(3, {
      retirement: { criteria: "classification_count", options: { count: 2 } },
    });
    for (const s of [subjects[0], subjects[0], subjects[1]]) await api.post("/classifications", classificationBody(workflow, [s.id]));
    const list = await api.get(`/subject_workflow_statuses?workflow_id=${workflow.id}&sort=id`);
    expect(list.status).toBe(200);
    const rows = list.body.subject_workflow_statuses as {
      classifications_count: number;
      retired_at: string | null;
      retirement_reason: string | null;
      links: { subject: string; workflow: string };
    }[];
    expect(rows.map((r) => [r.links.subject, r.classifications_count, r.retirement_reason, !!r.retired_at])).toEqual([
      [String(subjects[0].id), 2, "classification_count", true],
      [String(subjects[1].id), 1, null, false],
    ]);
    expect(rows[0].links.workflow).toBe(String(workflow.id));
    const one = await api.get(`/subject_workflow_statuses?subject_id=${subjects[1].id}`);
    expect(one.body.subject_workflow_statuses).toHaveLength(1);
    expect((await api.post("/subject_workflow_statuses", { subject_workflow_statuses: {} }, { token: owner.token })).status).toBe(405);
    await db().project.update({ where: { id: project.id }, data: { private: true } });
    expect((await api.get(`/subject_workflow_statuses?workflow_id=${workflow.id}`)).body.subject_workflow_statuses).toEqual([]);
    expect((await api.get(`/subject_workflow_statuses/${list.body.subject_workflow_statuses[0].id}`)).status).toBe(404);
    expect(
      (await api.get(`/subject_workflow_statuses?workflow_id=${workflow.id}`, { token: owner.token })).body.subject_workflow_statuses,
    ).toHaveLength(2);
  });
});

describe("the Python client's SubjectSet calls", () => {
  // panoptes_client/panoptes.py sends these on every request.
  const py = (token: string) => ({ token, headers: { "content-type": "application/json", accept: "application/vnd.api+json; version=1" } });

  it("add, subjects, `in`, subject_workflow_statuses and remove, as the client sends them", async () => {
    const { project, workflow, owner } = await classifiableProject(0);
    const { subjects } = await createSubjectSet(project.id, 3);
    const created = await call("POST", "/api/subject_sets", {
      ...py(owner.token),
      body: { subject_sets: { display_name: "From Python", links: { project: String(project.id) } } },
    });
    expect(created.status).toBe(201);
    const set = created.body.subject_sets[0];
    // SubjectSet.add(subjects): reload (GET with the record's etag), then POST the link.
    const reloaded = await call("GET", `/api/subject_sets/${set.id}`, py(owner.token));
    expect(reloaded.status).toBe(200);
    const added = await call("POST", `/api/subject_sets/${set.id}/links/subjects`, {
      ...py(owner.token),
      body: { subjects: subjects.map((s) => String(s.id)) },
    });
    expect(added.status).toBe(200);
    // SubjectSet.subjects: SetMemberSubject.where(subject_set_id=...) and each sms.links.subject.
    const members = await call("GET", `/api/set_member_subjects?subject_set_id=${set.id}&page=1`, py(owner.token));
    expect(members.body.set_member_subjects.map((m: { links: { subject: string } }) => m.links.subject).sort()).toEqual(
      subjects.map((s) => String(s.id)).sort(),
    );
    expect(members.body.meta.set_member_subjects).toMatchObject({ count: 3, page: 1, next_page: null });
    // `subject in subject_set`: SetMemberSubject.where(subject_set_id, subject_id).object_count == 1.
    const contains = await call("GET", `/api/set_member_subjects?subject_set_id=${set.id}&subject_id=${subjects[1].id}`, py(owner.token));
    expect(contains.body.meta.set_member_subjects.count).toBe(1);
    // subject_workflow_statuses(workflow_id): subject_ids joined by ", ".
    await call("POST", `/api/workflows/${workflow.id}/links/subject_sets`, {
      ...py(owner.token),
      body: { subject_sets: [String(set.id)] },
    });
    await api.post("/classifications", classificationBody(workflow, [subjects[0].id]));
    const ids = subjects.map((s) => String(s.id)).join(", ");
    const statuses = await call(
      "GET",
      `/api/subject_workflow_statuses?subject_ids=${encodeURIComponent(ids)}&workflow_id=${workflow.id}&page=1`,
      py(owner.token),
    );
    expect(statuses.status).toBe(200);
    expect(
      statuses.body.subject_workflow_statuses.map((s: { links: { subject: string }; classifications_count: number }) => [
        s.links.subject,
        s.classifications_count,
      ]),
    ).toEqual([[String(subjects[0].id), 1]]);
    // SubjectSet.remove(subjects): DELETE the link with the ids joined by ",".
    const removed = await call("DELETE", `/api/subject_sets/${set.id}/links/subjects/${subjects[0].id},${subjects[2].id}`, py(owner.token));
    expect(removed.status).toBe(204);
    const left = await call("GET", `/api/set_member_subjects?subject_set_id=${set.id}`, py(owner.token));
    expect(left.body.set_member_subjects.map((m: { links: { subject: string } }) => m.links.subject)).toEqual([String(subjects[1].id)]);
    expect((await db().subjectSet.findUniqueOrThrow({ where: { id: Number(set.id) } })).setMemberSubjectsCount).toBe(1);
  });
});
