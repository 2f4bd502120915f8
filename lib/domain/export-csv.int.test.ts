import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { GET as getFile } from "@/app/uploads/[...key]/route";
import { db } from "@/lib/db";
import { drainJobs } from "@/lib/jobs/worker";
import { api } from "@/test/http";
import {
  classifiableProject,
  classificationBody,
  createSubjectSet,
  createUser,
  createWorkflow,
  grantProjectRole,
  signedInUser,
  tokenFor,
  uid,
} from "@/test/factories";

async function download(url: string) {
  const u = new URL(url);
  const req = new Request(new URL(u.pathname + u.search, "http://quorum.test"));
  const res = await getFile(req, { params: Promise.resolve({ key: u.pathname.replace(/^\/uploads\//, "").split("/") }) });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Starts an export, runs it, and answers the finished job and the CSV's records. */
async function exported(path: string, token: string) {
  const started = await api.post(path, {}, { token });
  expect(started.status).toBe(201);
  expect(started.body.linked.background_jobs[0]).toMatchObject({ status: "pending", download_url: null });
  await drainJobs();
  const job = (await api.get(path, { token })).body.linked.background_jobs[0];
  expect(job.id).toBe(started.body.linked.background_jobs[0].id);
  expect(job.status).toBe("completed");
  const file = await download(job.download_url);
  expect(file.status).toBe(200);
  expect(file.headers.get("content-type")).toMatch(/^text\/csv/);
  return { job, rows: parse(file.text, { columns: true }) as Record<string, string>[], header: file.text.split("\n")[0] };
}

describe("CSV exports", () => {
  it("exports a workflow's and a project's completed classifications, row by row, without IP addresses", async () => {
    const { owner, project, workflow, subjects } = await classifiableProject(3);
    const volunteer = await signedInUser();
    const expert = await signedInUser();
    await grantProjectRole(project.id, expert.user.id, ["expert"]);
    const other = await createWorkflow(project.id);
    await createSubjectSet(project.id, 0, { workflowIds: [other.id] });
    await db().setMemberSubject.create({
      data: {
        subjectSetId: (await db().workflowSubjectSet.findFirstOrThrow({ where: { workflowId: other.id } })).subjectSetId,
        subjectId: subjects[2].id,
      },
    });

    const post = async (token: string | undefined, w: typeof workflow, ids: number[], extra: Record<string, unknown> = {}) => {
      const res = await api.post("/classifications", classificationBody(w, ids, extra), { token });
      expect(res.status).toBe(201);
      return res.body.classifications[0].id as string;
    };
    const c1 = await post(volunteer.token, workflow, [subjects[0].id]);
    const c2 = await post(undefined, workflow, [subjects[1].id]);
    const c3 = await post(expert.token, workflow, [subjects[0].id, subjects[1].id], { gold_standard: true });
    await post(volunteer.token, workflow, [subjects[2].id], { completed: false });
    const c5 = await post(volunteer.token, other, [subjects[2].id]);

    const { rows, header, job } = await exported(`/workflows/${workflow.id}/classifications_export`, owner.token);
    expect(header).toBe(
      "classification_id,user_name,user_id,workflow_id,workflow_name,workflow_version,created_at," +
        "gold_standard,expert,metadata,annotations,subject_data,subject_ids",
    );
    expect(job).toMatchObject({ kind: "classifications_export", progress: 3, total: 3, params: { workflow_id: workflow.id } });
    expect(rows.map((r) => r.classification_id)).toEqual([c1, c2, c3]);
    const stored = await db().classification.findMany({ where: { id: { in: [c1, c2, c3].map(Number) } }, orderBy: { id: "asc" } });
    const version = `${workflow.majorVersion}.${workflow.minorVersion}`;
    rows.forEach((row, i) => {
      const c = stored[i];
      expect(row.workflow_id).toBe(String(workflow.id));
      expect(row.workflow_name).toBe(workflow.displayName);
      expect(row.workflow_version).toBe(version);
      expect(row.created_at).toBe(`${c.createdAt.toISOString().slice(0, 19).replace("T", " ")} UTC`);
      expect(JSON.parse(row.metadata)).toEqual(c.metadata);
      expect(JSON.parse(row.annotations)).toEqual(c.annotations);
      expect(row.subject_ids).toBe(c.subjectIds.join(";"));
      expect(JSON.parse(row.subject_data)).toEqual(
        Object.fromEntries(c.subjectIds.map((id) => [String(id), subjects.find((s) => s.id === id)!.metadata])),
      );
      expect(Object.keys(row)).not.toContain("user_ip");
    });
    expect(rows[0]).toMatchObject({ user_name: volunteer.user.login, user_id: String(volunteer.user.id), gold_standard: "", expert: "" });
    expect(rows[1]).toMatchObject({ user_name: "not-logged-in", user_id: "", expert: "" });
    expect(rows[2]).toMatchObject({ user_name: expert.user.login, gold_standard: "true", expert: "true" });

    const project_ = await exported(`/projects/${project.id}/classifications_export`, owner.token);
    expect(project_.rows.map((r) => r.classification_id)).toEqual([c1, c2, c3, c5]);
    expect(project_.rows[3]).toMatchObject({ workflow_id: String(other.id), workflow_name: other.displayName });
  });

  it("exports subjects with their sets, workflows, counts and retirement", async () => {
    const { owner, project, workflow, set, subjects } = await classifiableProject(2);
    const second = await createWorkflow(project.id);
    await db().workflowSubjectSet.create({ data: { workflowId: second.id, subjectSetId: set.id } });
    const loner = await db().subject.create({
      data: { projectId: project.id, metadata: { lonely: "yes" }, locations: [{ "image/png": "https://example.test/l.png" }] },
    });
    await api.post("/classifications", classificationBody(workflow, [subjects[0].id]), { token: owner.token });
    expect(
      (
        await api.post(
          `/workflows/${workflow.id}/retired_subjects`,
          { subject_id: subjects[1].id, retirement_reason: "consensus" },
          { token: owner.token },
        )
      ).status,
    ).toBe(204);

    const { rows, header, job } = await exported(`/projects/${project.id}/subjects_export`, owner.token);
    expect(header).toBe(
      "subject_id,project_id,workflow_id,subject_set_id,metadata,locations,classifications_count,retired_at,retirement_reason",
    );
    expect(job).toMatchObject({ progress: 3, total: 3 });
    const status = await db().subjectWorkflowStatus.findUniqueOrThrow({
      where: { subjectId_workflowId: { subjectId: subjects[1].id, workflowId: workflow.id } },
    });
    const row = (s: { id: number; metadata: unknown; locations: unknown }, w: number | null, count: string, retired = "", reason = "") => ({
      subject_id: String(s.id),
      project_id: String(project.id),
      workflow_id: w === null ? "" : String(w),
      subject_set_id: w === null ? "" : String(set.id),
      metadata: JSON.stringify(s.metadata),
      locations: JSON.stringify(s.locations),
      classifications_count: count,
      retired_at: retired,
      retirement_reason: reason,
    });
    expect(rows).toEqual([
      row(subjects[0], workflow.id, "1"),
      row(subjects[0], second.id, "0"),
      row(subjects[1], workflow.id, "0", `${status.retiredAt!.toISOString().slice(0, 19).replace("T", " ")} UTC`, "consensus"),
      row(subjects[1], second.id, "0"),
      row(loner, null, ""),
    ]);
  });

  it("writes no cell a spreadsheet would run as a formula, in every export", async () => {
    const { owner, project, workflow, subjects } = await classifiableProject(1);
    await db().workflow.update({ where: { id: workflow.id }, data: { displayName: '=HYPERLINK("https://evil.test","x")' } });
    // A login may start with "-": "-2-3..." is a formula to a spreadsheet.
    const volunteer = await createUser({ login: `-2-3${uid()}` });
    const res = await api.post("/classifications", classificationBody(workflow, [subjects[0].id]), { token: await tokenFor(volunteer) });
    expect(res.status).toBe(201);
    const workflows = await exported(`/projects/${project.id}/workflows_export`, owner.token);
    expect(workflows.rows.map((r) => r.display_name)).toEqual([`'=HYPERLINK("https://evil.test","x")`]);
    const classifications = await exported(`/projects/${project.id}/classifications_export`, owner.token);
    expect(classifications.rows.map((r) => [r.user_name, r.workflow_name])).toEqual([
      [`'${volunteer.login}`, `'=HYPERLINK("https://evil.test","x")`],
    ]);
  });

  it("is for the project's editors only; one export per target at a time; downloads need the signed URL", async () => {
    const { owner, project, workflow } = await classifiableProject(1, { private: true });
    const collaborator = await signedInUser();
    const tester = await signedInUser();
    const stranger = await signedInUser();
    await grantProjectRole(project.id, collaborator.user.id, ["collaborator"]);
    await grantProjectRole(project.id, tester.user.id, ["tester"]);
    const path = `/projects/${project.id}/classifications_export`;
    const cases: [string, Promise<any>, number][] = [
      ["anonymous", api.post(path, {}), 401],
      ["tester", api.post(path, {}, { token: tester.token }), 403],
      ["stranger (private project)", api.post(path, {}, { token: stranger.token }), 404],
      ["stranger on the workflow", api.post(`/workflows/${workflow.id}/classifications_export`, {}, { token: stranger.token }), 404],
      ["missing project", api.post(`/projects/99999999/subjects_export`, {}, { token: owner.token }), 404],
      ["nothing requested yet", api.get(path, { token: owner.token }), 404],
    ];
    for (const [name, p, status] of cases) {
      const res = await p;
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toBeTruthy();
    }
    expect(await db().backgroundJob.count({ where: { projectId: project.id } })).toBe(0);

    const first = await api.post(path, {}, { token: collaborator.token });
    expect(first.status).toBe(201);
    const again = await api.post(path, {}, { token: owner.token });
    expect(again.status).toBe(200);
    expect(again.body.linked.background_jobs[0].id).toBe(first.body.linked.background_jobs[0].id);
    expect((await api.get(path, { token: tester.token })).status).toBe(403);
    await drainJobs();
    const job = (await api.get(`/background_jobs/${first.body.linked.background_jobs[0].id}`, { token: owner.token })).body
      .background_jobs[0];
    expect(job.status).toBe("completed");
    expect((await api.get(`/background_jobs/${job.id}`, { token: tester.token })).status).toBe(404);
    expect((await download(job.download_url.split("?")[0])).status).toBe(403);
    // Change the signature's first character to another one (whatever it was).
    const forged = job.download_url.replace(/signature=(.)/, (_: string, c: string) => `signature=${c === "x" ? "y" : "x"}`);
    expect((await download(forged)).status).toBe(403);
    expect((await download(job.download_url)).text.split("\n")[0]).toMatch(/^classification_id,/);
    // A finished export does not block the next one.
    expect((await api.post(path, {}, { token: owner.token })).status).toBe(201);
  });
});

describe("CSV exports: batches", () => {
  it("walks more than one batch in id order, each row once", async () => {
    const { owner, project, workflow, subjects } = await classifiableProject(1);
    await db().$executeRawUnsafe(
      `INSERT INTO classifications (project_id, workflow_id, user_id, subject_ids, annotations, metadata, completed, workflow_version, updated_at)
       SELECT $1, $2, $3, ARRAY[$4::int], jsonb_build_array(jsonb_build_object('task', 'T0', 'value', g)), jsonb_build_object('n', g), g % 10 <> 0, '1.1', now()
       FROM generate_series(1, 2600) g`,
      project.id,
      workflow.id,
      owner.user.id,
      subjects[0].id,
    );
    const { rows, job } = await exported(`/workflows/${workflow.id}/classifications_export`, owner.token);
    expect(job).toMatchObject({ progress: 2340, total: 2340 });
    expect(rows).toHaveLength(2340);
    const ids = rows.map((r) => Number(r.classification_id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(2340);
    expect(rows.every((r) => JSON.parse(r.metadata).n % 10 !== 0)).toBe(true);
  });
});
