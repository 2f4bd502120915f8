// Monitoring a workflow: its subject reductions across subjects (newest first, with retirement), and a
// failed action retried by hand.
import { describe, expect, it } from "vitest";
import { pool } from "@/lib/db";
import { api } from "@/test/http";
import { engine, drainUntil } from "@/test/engine";
import { classificationBody, classifiableProject, grantProjectRole, signedInUser } from "@/test/factories";

const config = (id: number) => ({
  id,
  extractors_config: { q: { type: "question", task_key: "T0" } },
  reducers_config: { n: { type: "count" } },
  rules_config: [
    { if: ["gte", ["lookup", "n.classifications", 0], ["const", 2]], then: [{ action: "retire_subject", reason: "consensus" }] },
  ],
});

async function monitored(opts: { private?: boolean } = {}) {
  const cast = await classifiableProject(3, { private: opts.private });
  expect((await engine.post("/workflows", { workflow: config(cast.workflow.id) }, cast.owner.token)).status).toBe(201);
  return cast;
}

describe("workflow reductions", () => {
  it("lists the workflow's reductions newest first, with each subject's retirement, a page at a time", async () => {
    const { owner, workflow, subjects } = await monitored();
    const volunteers = await Promise.all([signedInUser(), signedInUser()]);
    // Subject 0 twice (retired by the rule), subject 1 once.
    for (const [v, s] of [
      [0, 0],
      [1, 0],
      [0, 1],
    ] as const)
      expect(
        (await api.post("/classifications", classificationBody(workflow, [subjects[s].id]), { token: volunteers[v].token })).status,
      ).toBe(201);
    const list = () => engine.get(`/workflows/${workflow.id}/reductions`, owner.token);
    await drainUntil(
      async () => (await list()).body.length === 2 && (await list()).body.some((r: { retired_at: string | null }) => r.retired_at),
    );
    const got = (await list()).body as {
      subject_id: number;
      reducer_key: string;
      data: { classifications: number };
      retired_at: string | null;
      retirement_reason: string | null;
    }[];
    const bySubject = Object.fromEntries(got.map((r) => [r.subject_id, r]));
    expect(bySubject[subjects[0].id]).toMatchObject({ reducer_key: "n", data: { classifications: 2 }, retirement_reason: "consensus" });
    expect(bySubject[subjects[0].id].retired_at).not.toBeNull();
    expect(bySubject[subjects[1].id]).toMatchObject({ data: { classifications: 1 }, retired_at: null });
    expect((await engine.get(`/workflows/${workflow.id}/reductions?page_size=1`, owner.token)).body).toHaveLength(1);
    // The retired ones, with their reasons, through the API's statuses.
    const retired = await api.get(`/subject_workflow_statuses?workflow_id=${workflow.id}&retired=true`, { token: owner.token });
    expect(
      retired.body.subject_workflow_statuses.map((s: { links: { subject: string }; retirement_reason: string }) => [
        s.links.subject,
        s.retirement_reason,
      ]),
    ).toEqual([[String(subjects[0].id), "consensus"]]);
    const active = await api.get(`/subject_workflow_statuses?workflow_id=${workflow.id}&retired=false`, { token: owner.token });
    expect(active.body.subject_workflow_statuses.map((s: { links: { subject: string } }) => s.links.subject)).toEqual([
      String(subjects[1].id),
    ]);
    expect((await api.get(`/subject_workflow_statuses?workflow_id=${workflow.id}&retired=maybe`, { token: owner.token })).status).toBe(422);
    expect((await engine.get(`/workflows/${workflow.id}/reductions?page_size=1&page=3`, owner.token)).body).toHaveLength(0);
  });

  it.each([
    ["anonymous, public project", false, "anonymous", 401],
    ["a volunteer, public project", false, "volunteer", 403],
    ["a volunteer, private project", true, "volunteer", 404],
    ["a collaborator", true, "collaborator", 200],
  ] as const)("%s: %s", async (_n, hidden, who, status) => {
    const { project, workflow } = await monitored({ private: hidden });
    const other = await signedInUser();
    if (who === "collaborator") await grantProjectRole(project.id, other.user.id, ["collaborator"]);
    const res = await engine.get(`/workflows/${workflow.id}/reductions`, who === "anonymous" ? undefined : other.token);
    expect(res.status).toBe(status);
    if (status !== 200) expect(res.body.errors[0].message).toBeTruthy();
  });
});

describe("retrying an action", () => {
  it("performs a failed action again; a pending or completed one is refused; others may not", async () => {
    const { owner, workflow, subjects } = await monitored();
    const { rows } = await pool().query<{ id: number }>(
      `INSERT INTO engine_actions (workflow_id, topic, subject_id, effect_type, config, dedupe_key, status, attempts, error)
       VALUES ($1, 'subject', $2, 'retire_subject', '{"reason": "other"}', $3, 'failed', 5, 'the database was away') RETURNING id`,
      [workflow.id, subjects[2].id, `test-${Date.now()}-${Math.random()}`],
    );
    const id = rows[0].id;
    const volunteer = await signedInUser();
    expect((await engine.post(`/workflows/${workflow.id}/actions/${id}/retry`, {}, volunteer.token)).status).toBe(403);
    const retried = await engine.post(`/workflows/${workflow.id}/actions/${id}/retry`, {}, owner.token);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ id, status: "pending", attempts: 0, error: null });
    const state = async () =>
      (
        await pool().query(
          `SELECT a.status, sws.retirement_reason FROM engine_actions a LEFT JOIN subject_workflow_statuses sws
            ON sws.subject_id = a.subject_id AND sws.workflow_id = a.workflow_id WHERE a.id = $1`,
          [id],
        )
      ).rows[0];
    await drainUntil(async () => (await state()).status === "completed");
    expect(await state()).toEqual({ status: "completed", retirement_reason: "other" });
    const again = await engine.post(`/workflows/${workflow.id}/actions/${id}/retry`, {}, owner.token);
    expect(again.status).toBe(422);
    expect(again.body.errors[0].message).toMatch(/this one is completed/);
    expect((await engine.post(`/workflows/${workflow.id}/actions/999999999/retry`, {}, owner.token)).status).toBe(404);
  });
});
