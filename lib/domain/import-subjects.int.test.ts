import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { drainJobs } from "@/lib/jobs/worker";
import { storage } from "@/lib/storage/storage";
import { api, call } from "@/test/http";
import { createProject, createSubjectSet, grantProjectRole, signedInUser } from "@/test/factories";
import { runSubjectImport } from "./import-subjects";

function manifest(rows: number, from = 0): string {
  const lines = ["n,name,external_id,#priority,location:image/png,location_2"];
  for (let i = from; i < from + rows; i++)
    lines.push(`${i},"Galaxy, number ""${i}""",ext-${i},${i % 7},img/${i}.png,https://cdn.example.test/thumbs/${i}.jpg`);
  return `${lines.join("\n")}\n`;
}

async function importCsv(setId: number, csv: string, token: string, query = "?base_url=https://files.example.test/data/") {
  return call("POST", `/api/subject_sets/${setId}/imports${query}`, { raw: csv, contentType: "text/csv", token });
}

async function team() {
  const owner = await signedInUser();
  const project = await createProject(owner.user.id);
  const { set } = await createSubjectSet(project.id, 0);
  return { owner, project, set };
}

describe("subject manifest import", () => {
  it("imports 20,000 rows in batches, resumes after a crash without duplicates, and keeps counters exact", async () => {
    const { owner, project, set } = await team();
    // Past the default subject limit (10,000): raised as an admin would.
    await db().user.update({ where: { id: owner.user.id }, data: { subjectLimit: 20_000 } });
    const res = await importCsv(set.id, manifest(20_000), owner.token);
    expect(res.status).toBe(201);
    const job = res.body.background_jobs[0];
    expect(job).toMatchObject({
      kind: "subject_import",
      status: "pending",
      progress: 0,
      total: null,
      error: null,
      links: { project: String(project.id), user: String(owner.user.id) },
    });

    // A crash after the third committed batch.
    await expect(
      runSubjectImport(Number(job.id), {
        afterBatch: (done) => {
          if (done === 3000) throw new Error("simulated crash");
        },
      }),
    ).rejects.toThrow("simulated crash");
    const midway = await api.get(`/background_jobs/${job.id}`, { token: owner.token });
    expect(midway.body.background_jobs[0]).toMatchObject({ status: "running", progress: 3000, total: 20_000 });
    expect(await db().subject.count({ where: { projectId: project.id } })).toBe(3000);

    // The queued task picks it up again from the committed progress.
    await drainJobs();
    const done = (await api.get(`/background_jobs/${job.id}`, { token: owner.token })).body.background_jobs[0];
    expect(done).toMatchObject({ status: "completed", progress: 20_000, total: 20_000, error: null });
    expect(done.finished_at).toBeTruthy();

    const subjects = await db().subject.findMany({ where: { projectId: project.id }, orderBy: { id: "asc" }, include: { members: true } });
    expect(subjects).toHaveLength(20_000);
    expect(new Set(subjects.map((s) => (s.metadata as { n: string }).n)).size).toBe(20_000);
    subjects.forEach((s, i) => {
      expect(s.metadata).toEqual({ n: String(i), name: `Galaxy, number "${i}"`, "#priority": String(i % 7) });
      expect(s.externalId).toBe(`ext-${i}`);
      expect(s.locations).toEqual([
        { "image/png": `https://files.example.test/data/img/${i}.png` },
        { "image/jpeg": `https://cdn.example.test/thumbs/${i}.jpg` },
      ]);
      expect(s.uploadUserId).toBe(owner.user.id);
      expect(s.members.map((m) => [m.subjectSetId, m.priority])).toEqual([[set.id, i % 7]]);
    });
    expect((await db().subjectSet.findUniqueOrThrow({ where: { id: set.id } })).setMemberSubjectsCount).toBe(20_000);
    expect((await db().project.findUniqueOrThrow({ where: { id: project.id } })).subjectsCount).toBe(20_000);
    expect((await db().user.findUniqueOrThrow({ where: { id: owner.user.id } })).uploadedSubjectsCount).toBe(20_000);
    // Running the finished job again does nothing; the manifest file is removed.
    await runSubjectImport(Number(job.id));
    expect(await db().subject.count({ where: { projectId: project.id } })).toBe(20_000);
    const params = (await db().backgroundJob.findUniqueOrThrow({ where: { id: Number(job.id) } })).params as { source_key: string };
    expect(await storage().exists(params.source_key)).toBe(false);
  }, 120_000);

  it("fails a bad manifest with a message naming the problem and imports nothing", async () => {
    const { owner, project, set } = await team();
    const bad: [string, string, string][] = [
      ["no location column", "name,size\na,1\n", "location column"],
      ["unknown extension", "location\nhttps://x.test/a.xyz\n", "line 2: cannot tell the media type"],
      ["file name without base_url", "location:image/png\na.png\n", "line 2: 'a.png' is not an http(s) URL"],
      ["ragged row", `${manifest(5)}1,2\n`, "invalid CSV"],
      ["unclosed quote", `${manifest(3)}"1,x,y,1,a.png,b.jpg\n`, "invalid CSV"],
      ["duplicate header", "location,name,Name\nhttps://x.test/a.png,a,b\n", "twice"],
      ["row without location", "location,name\n,a\n", "line 2: no location"],
      ["bad mime header", "location:application/x-evil\nhttps://x.test/a\n", "not an accepted media type"],
    ];
    const ids: string[] = [];
    for (const [name, csv] of bad) {
      const res = await importCsv(set.id, csv, owner.token, name === "file name without base_url" ? "" : undefined);
      expect(res.status, name).toBe(201);
      ids.push(res.body.background_jobs[0].id);
    }
    await drainJobs();
    for (const [i, [name, , message]] of bad.entries()) {
      const job = (await api.get(`/background_jobs/${ids[i]}`, { token: owner.token })).body.background_jobs[0];
      expect(job.status, name).toBe("failed");
      expect(job.error, name).toContain(message);
      expect(job.progress, name).toBe(0);
    }
    expect(await db().subject.count({ where: { projectId: project.id } })).toBe(0);
    expect((await db().subjectSet.findUniqueOrThrow({ where: { id: set.id } })).setMemberSubjectsCount).toBe(0);
  });

  it("refuses requests from non-editors and bad requests, starting nothing", async () => {
    const { owner, project, set } = await team();
    const tester = await signedInUser();
    const stranger = await signedInUser();
    await grantProjectRole(project.id, tester.user.id, ["tester"]);
    const secret = await createProject(owner.user.id, { private: true });
    const { set: secretSet } = await createSubjectSet(secret.id, 0);
    const csv = manifest(2);
    const cases: [string, Promise<any>, number][] = [
      ["anonymous", importCsv(set.id, csv, undefined as never), 401],
      ["tester", importCsv(set.id, csv, tester.token), 403],
      ["private set", importCsv(secretSet.id, csv, stranger.token), 404],
      ["missing set", importCsv(99_999_999, csv, owner.token), 404],
      ["JSON body", call("POST", `/api/subject_sets/${set.id}/imports`, { body: { csv }, token: owner.token }), 415],
      ["other type", call("POST", `/api/subject_sets/${set.id}/imports`, { raw: csv, contentType: "text/plain", token: owner.token }), 415],
      ["empty body", importCsv(set.id, "", owner.token), 422],
      ["bad base_url", importCsv(set.id, csv, owner.token, "?base_url=ftp://x"), 422],
      [
        "no Accept",
        call("POST", `/api/subject_sets/${set.id}/imports`, { raw: csv, contentType: "text/csv", token: owner.token, accept: null }),
        404,
      ],
    ];
    for (const [name, p, status] of cases) {
      const res = await p;
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toBeTruthy();
    }
    expect(await db().backgroundJob.count({ where: { projectId: { in: [project.id, secret.id] } } })).toBe(0);
  });

  it("shows jobs only to the project's editors; a subject limit fails the import", async () => {
    const { owner, project, set } = await team();
    const collaborator = await signedInUser();
    const tester = await signedInUser();
    await grantProjectRole(project.id, collaborator.user.id, ["collaborator"]);
    await grantProjectRole(project.id, tester.user.id, ["tester"]);
    await db().user.update({ where: { id: collaborator.user.id }, data: { subjectLimit: 3 } });
    const res = await importCsv(set.id, manifest(5), collaborator.token);
    const id = res.body.background_jobs[0].id;
    expect((await api.get(`/background_jobs/${id}`, { token: owner.token })).status).toBe(200);
    expect((await api.get(`/background_jobs/${id}`, { token: tester.token })).status).toBe(404);
    expect((await api.get(`/background_jobs/${id}`)).status).toBe(404);
    expect((await api.get(`/background_jobs?project_id=${project.id}`, { token: tester.token })).body.background_jobs).toEqual([]);
    expect(
      (await api.get(`/background_jobs?project_id=${project.id}&kind=subject_import`, { token: owner.token })).body.background_jobs.map(
        (j: any) => j.id,
      ),
    ).toEqual([id]);
    await drainJobs();
    const job = (await api.get(`/background_jobs/${id}`, { token: collaborator.token })).body.background_jobs[0];
    expect(job).toMatchObject({ status: "failed", progress: 0 });
    expect(job.error).toMatch(/limit of 3/);
    expect(await db().subject.count({ where: { projectId: project.id } })).toBe(0);
  });
});
