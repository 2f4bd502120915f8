// POST /engine/workflows/<id>/dry_run against the real database: recent or pasted classifications through an
// edited configuration and the saved one, a subject that would retire and one that would not, the
// difference between the two, validation, permissions, and nothing written.
import { describe, expect, it } from "vitest";
import { pool } from "@/lib/db";
import { api } from "@/test/http";
import { engine } from "@/test/engine";
import { classificationBody, classifiableProject, grantProjectRole, signedInUser } from "@/test/factories";

const rule = (votes: number) => ({
  extractors_config: { q: { type: "question", task_key: "T0" } },
  reducers_config: { c: { type: "consensus" } },
  rules_config: [
    { if: ["gte", ["lookup", "c.num_votes", 0], ["const", votes]], then: [{ action: "retire_subject", reason: "consensus" }] },
  ],
});

/** Rows the pipeline would write, for this workflow (the dry run must leave them as they are). */
async function written(workflowId: number) {
  const { rows } = await pool().query(
    `SELECT (SELECT count(*) FROM extracts WHERE workflow_id = $1)::int AS extracts, (SELECT count(*) FROM subject_reductions
      WHERE workflow_id = $1)::int AS reductions,
            (SELECT count(*) FROM engine_actions WHERE workflow_id = $1)::int AS actions, (SELECT count(*)
              FROM subject_workflow_statuses WHERE workflow_id = $1 AND retired_at IS NOT NULL)::int AS retired,
            (SELECT count(*) FROM engine_subjects)::int AS cached_subjects`,
    [workflowId],
  );
  return rows[0];
}

async function cast(opts: { saved?: number; private?: boolean; classify?: boolean } = {}) {
  const c = await classifiableProject(2, { private: opts.private });
  if (opts.saved !== undefined) {
    // Saved while the pipeline is idle in this test: its classifications are sent after, and never drained here.
    expect((await engine.post("/workflows", { workflow: { id: c.workflow.id, ...rule(opts.saved) } }, c.owner.token)).status).toBe(201);
  }
  if (opts.classify === false) return c;
  const volunteers = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
  // Subject 0: three alike; subject 1: split.
  for (const [v, s, value] of [
    [0, 0, 0],
    [1, 0, 0],
    [2, 0, 0],
    [0, 1, 0],
    [1, 1, 1],
  ] as const) {
    const body = classificationBody(c.workflow, [c.subjects[s].id]);
    body.classifications.annotations = [{ task: "T0", value }];
    expect((await api.post("/classifications", body, { token: volunteers[v].token })).status).toBe(201);
  }
  return c;
}

describe("POST /engine/workflows/<id>/dry_run", () => {
  it("runs the last classifications through the edited configuration: one subject would retire, one would not; nothing is written", async () => {
    const { owner, workflow, subjects } = await cast();
    const before = await written(workflow.id);
    const res = await engine.post(`/workflows/${workflow.id}/dry_run`, { workflow: rule(3), last: 50 }, owner.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.classifications).toBe(5);
    expect(res.body.extracts).toHaveLength(5);
    expect(
      res.body.targets.map((t: { target_id: number; retires: boolean; retirement_reason: string | null }) => [
        t.target_id,
        t.retires,
        t.retirement_reason,
      ]),
    ).toEqual([
      [subjects[0].id, true, "consensus"],
      [subjects[1].id, false, null],
    ]);
    expect(res.body.saved).toBeNull();
    expect(res.body.diff).toBeNull();
    expect(res.body.warnings).toEqual([]);
    expect(await written(workflow.id)).toEqual(before);
  });

  it("compares with the saved configuration on the same classifications", async () => {
    const { owner, workflow, subjects } = await cast({ saved: 3 });
    const res = await engine.post(`/workflows/${workflow.id}/dry_run`, { workflow: rule(1), last: 5 }, owner.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.saved.targets.filter((t: { retires: boolean }) => t.retires).map((t: { target_id: number }) => t.target_id)).toEqual([
      subjects[0].id,
    ]);
    expect(res.body.targets.filter((t: { retires: boolean }) => t.retires).map((t: { target_id: number }) => t.target_id)).toEqual([
      subjects[0].id,
      subjects[1].id,
    ]);
    expect(res.body.diff).toEqual([
      {
        topic: "subject",
        target_id: subjects[1].id,
        reductions: [],
        effects: { edited: [{ action: "retire_subject", reason: "consensus" }], saved: [] },
      },
    ]);
    // last: 2 takes the newest two only (subject 1's).
    const newest = await engine.post(`/workflows/${workflow.id}/dry_run`, { workflow: rule(1), last: 2 }, owner.token);
    expect(newest.body.targets.map((t: { target_id: number }) => t.target_id)).toEqual([subjects[1].id]);
  });

  it("takes pasted classifications", async () => {
    const { owner, workflow } = await cast();
    const pastedOnes = [1, 2, 3].map((i) => ({
      id: 900_000 + i,
      subject_id: 77,
      user_id: i,
      annotations: [{ task: "T0", value: 1 }],
      metadata: {},
      created_at: `2026-01-0${i}T00:00:00Z`,
    }));
    const res = await engine.post(`/workflows/${workflow.id}/dry_run`, { workflow: rule(3), classifications: pastedOnes }, owner.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.targets).toEqual([
      {
        topic: "subject",
        target_id: 77,
        fired: [{ rule_index: 0, effects: [{ action: "retire_subject", reason: "consensus" }] }],
        retires: true,
        retirement_reason: "consensus",
      },
    ]);
  });

  it.each([
    [
      "an invalid configuration, as a save would say",
      { workflow: { extractors_config: { q: { type: "nope" } } }, last: 5 },
      /extractors_config/,
    ],
    ["neither last nor classifications", { workflow: rule(3) }, /either last/],
    ["both", { workflow: rule(3), last: 1, classifications: [{}] }, /either last/],
    ["last out of range", { workflow: rule(3), last: 501 }, /last/],
    [
      "a pasted classification without annotations",
      { workflow: rule(3), classifications: [{ id: 1, subject_id: 2 }] },
      /classifications\[0\]: annotations/,
    ],
  ])("refuses %s (422)", async (_n, body, message) => {
    const { owner, workflow } = await cast();
    const res = await engine.post(`/workflows/${workflow.id}/dry_run`, body, owner.token);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].message).toMatch(message);
  });

  it.each([
    ["anonymous", false, "anonymous", 401],
    ["a volunteer on a public project", false, "volunteer", 403],
    ["a volunteer on a private project", true, "volunteer", 404],
    ["a collaborator", true, "collaborator", 200],
  ] as const)("%s: %s", async (_n, hidden, who, status) => {
    const { project, workflow } = await cast({ private: hidden, classify: false });
    const other = await signedInUser();
    if (who === "collaborator") await grantProjectRole(project.id, other.user.id, ["collaborator"]);
    const res = await engine.post(
      `/workflows/${workflow.id}/dry_run`,
      { workflow: rule(3), last: 5 },
      who === "anonymous" ? undefined : other.token,
    );
    expect(res.status).toBe(status);
  });
});
