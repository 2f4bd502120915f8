import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { drainJobs } from "@/lib/jobs/worker";
import { api, call } from "@/test/http";
import { createProject, createSubjectSet, grantProjectRole, signedInUser } from "@/test/factories";
import { runSubjectImport } from "./import-subjects";

// Every account has a subject limit (the established platform's): an explicit one an admin sets, else the
// default (USER_SUBJECT_LIMIT, 10,000 unless configured). The subjects it has uploaded and that still exist
// count against it, by API create and by manifest import alike; admins and upload_whitelist accounts are
// not limited. Two uploads at once never pass it together.

const DEFAULT_LIMIT = 10_000;

function manifest(rows: number): string {
  const lines = ["n,location:image/png"];
  for (let i = 0; i < rows; i++) lines.push(`${i},https://files.example.test/${i}.png`);
  return `${lines.join("\n")}\n`;
}

const importCsv = (setId: number, csv: string, token: string) =>
  call("POST", `/api/subject_sets/${setId}/imports`, { raw: csv, contentType: "text/csv", token });

async function team() {
  const owner = await signedInUser();
  const project = await createProject(owner.user.id);
  const { set } = await createSubjectSet(project.id, 0);
  return { owner, project, set };
}

const subjectBody = (projectId: number, n: number) => ({
  subjects: { locations: [{ "image/png": `https://example.test/${n}.png` }], metadata: { n }, links: { project: String(projectId) } },
});

const uploaded = async (userId: number) => (await db().user.findUniqueOrThrow({ where: { id: userId } })).uploadedSubjectsCount;

describe("subject limit", () => {
  it("gives a new account the default limit, which an import past it fails on, importing nothing", async () => {
    const { owner, project, set } = await team();
    const me = (await api.get(`/users/${owner.user.id}`, { token: owner.token })).body.users[0];
    expect(me).toMatchObject({ subject_limit: DEFAULT_LIMIT, uploaded_subjects_count: 0 });
    const res = await importCsv(set.id, manifest(DEFAULT_LIMIT + 1), owner.token);
    expect(res.status).toBe(201);
    await drainJobs();
    const job = (await api.get(`/background_jobs/${res.body.background_jobs[0].id}`, { token: owner.token })).body.background_jobs[0];
    expect(job).toMatchObject({ status: "failed", progress: 0 });
    expect(job.error).toMatch(/limit of 10000/);
    expect(await db().subject.count({ where: { projectId: project.id } })).toBe(0);
    expect(await uploaded(owner.user.id)).toBe(0);
  }, 60_000);

  it("never lets concurrent creates pass the limit together", async () => {
    const { owner, project } = await team();
    await db().user.update({ where: { id: owner.user.id }, data: { subjectLimit: 5 } });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => api.post("/subjects", subjectBody(project.id, i), { token: owner.token })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0].message).toMatch(/5 subjects of your limit of 5/);
    }
    expect(await db().subject.count({ where: { projectId: project.id } })).toBe(5);
    expect(await uploaded(owner.user.id)).toBe(5);
  });

  it("never lets two imports pass the limit together, even when both were checked before either inserted", async () => {
    const { owner, project, set } = await team();
    await db().user.update({ where: { id: owner.user.id }, data: { subjectLimit: 10 } });
    const jobs = [];
    for (let i = 0; i < 2; i++) jobs.push(Number((await importCsv(set.id, manifest(6), owner.token)).body.background_jobs[0].id));
    // Each waits after its check until the other has checked too: both see 0 of 10 uploaded.
    let checked = 0;
    let bothChecked: () => void = () => {};
    const barrier = new Promise<void>((resolve) => {
      bothChecked = resolve;
    });
    const afterCheck = async () => {
      if (++checked === 2) bothChecked();
      await barrier;
    };
    await Promise.all(jobs.map((id) => runSubjectImport(id, { afterCheck })));
    const states = await db().backgroundJob.findMany({ where: { id: { in: jobs } }, orderBy: { id: "asc" } });
    expect(states.map((j) => j.status).sort()).toEqual(["completed", "failed"]);
    expect(states.find((j) => j.status === "failed")!.error).toMatch(/limit of 10/);
    expect(await db().subject.count({ where: { projectId: project.id } })).toBe(6);
    expect(await uploaded(owner.user.id)).toBe(6);
  });

  it("refuses an import at once when the account is already at its limit, storing nothing", async () => {
    const { owner, set } = await team();
    await db().user.update({ where: { id: owner.user.id }, data: { subjectLimit: 2, uploadedSubjectsCount: 2 } });
    const res = await importCsv(set.id, manifest(1), owner.token);
    expect(res.status).toBe(403);
    expect(res.body.errors[0].message).toMatch(/2 subjects of your limit of 2/);
    expect(await db().backgroundJob.count({ where: { userId: owner.user.id } })).toBe(0);
  });

  it("counts the subjects that still exist: deleting one (or its project) frees its place", async () => {
    const { owner, project } = await team();
    await db().user.update({ where: { id: owner.user.id }, data: { subjectLimit: 2 } });
    const ids = [];
    for (let i = 0; i < 2; i++)
      ids.push((await api.post("/subjects", subjectBody(project.id, i), { token: owner.token })).body.subjects[0].id);
    expect((await api.post("/subjects", subjectBody(project.id, 3), { token: owner.token })).status).toBe(403);
    const etag = (await api.get(`/subjects/${ids[0]}`, { token: owner.token })).headers.get("etag")!;
    expect((await api.delete(`/subjects/${ids[0]}`, { token: owner.token, headers: { "if-match": etag } })).status).toBe(204);
    expect(await uploaded(owner.user.id)).toBe(1);
    expect((await api.post("/subjects", subjectBody(project.id, 4), { token: owner.token })).status).toBe(201);
    // A collaborator's uploads are theirs; deleting the project frees everyone's places.
    const collaborator = await signedInUser();
    await grantProjectRole(project.id, collaborator.user.id, ["collaborator"]);
    expect((await api.post("/subjects", subjectBody(project.id, 5), { token: collaborator.token })).status).toBe(201);
    expect(await uploaded(collaborator.user.id)).toBe(1);
    const projectEtag = (await api.get(`/projects/${project.id}`, { token: owner.token })).headers.get("etag")!;
    expect((await api.delete(`/projects/${project.id}`, { token: owner.token, headers: { "if-match": projectEtag } })).status).toBe(204);
    expect([await uploaded(owner.user.id), await uploaded(collaborator.user.id)]).toEqual([0, 0]);
  });

  it("is raised by an admin only; admins and upload_whitelist accounts are not limited", async () => {
    const { owner, project } = await team();
    const admin = await signedInUser({ admin: true });
    await db().user.update({ where: { id: owner.user.id }, data: { subjectLimit: 1, uploadedSubjectsCount: 1 } });
    const path = `/users/${owner.user.id}`;
    const etag = async () => (await api.get(path, { token: admin.token })).headers.get("etag")!;
    for (const fields of [{ subject_limit: 50_000 }, { upload_whitelist: true }]) {
      const self = await api.put(path, { users: fields }, { token: owner.token, headers: { "if-match": await etag() } });
      expect(self.status).toBe(403);
      expect(self.body.errors[0].message).toMatch(/Only an admin/);
    }
    expect(await db().user.findUniqueOrThrow({ where: { id: owner.user.id } })).toMatchObject({ subjectLimit: 1, uploadWhitelist: false });
    expect((await api.post("/subjects", subjectBody(project.id, 1), { token: owner.token })).status).toBe(403);

    const raised = await api.put(path, { users: { subject_limit: 2 } }, { token: admin.token, headers: { "if-match": await etag() } });
    expect(raised.status).toBe(200);
    expect(raised.body.users[0]).toMatchObject({ subject_limit: 2, uploaded_subjects_count: 1 });
    expect((await api.post("/subjects", subjectBody(project.id, 2), { token: owner.token })).status).toBe(201);
    expect((await api.post("/subjects", subjectBody(project.id, 3), { token: owner.token })).status).toBe(403);

    const whitelisted = await api.put(
      path,
      { users: { upload_whitelist: true } },
      { token: admin.token, headers: { "if-match": await etag() } },
    );
    expect(whitelisted.body.users[0]).toMatchObject({ upload_whitelist: true });
    expect((await api.post("/subjects", subjectBody(project.id, 4), { token: owner.token })).status).toBe(201);
    // null is the default again.
    const reset = await api.put(path, { users: { subject_limit: null } }, { token: admin.token, headers: { "if-match": await etag() } });
    expect(reset.body.users[0]).toMatchObject({ subject_limit: DEFAULT_LIMIT });
    for (const bad of [{ subject_limit: -1 }, { subject_limit: 1.5 }, { subject_limit: 2 ** 31 }, { upload_whitelist: "yes" }]) {
      expect((await api.put(path, { users: bad }, { token: admin.token, headers: { "if-match": await etag() } })).status).toBe(422);
    }
  });
});
