import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { GET as getFile } from "@/app/uploads/[...key]/route";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { drainPipeline, engine } from "@/test/engine";
import { classifiableProject, classificationBody, grantProjectRole, signedInUser } from "@/test/factories";

// Data requests: a workflow's extracts, subject reductions or user reductions as a CSV, built in the
// background and downloaded through a signed link.

async function download(url: string) {
  const u = new URL(url);
  const res = await getFile(new Request(new URL(u.pathname + u.search, "http://quorum.test")), {
    params: Promise.resolve({ key: u.pathname.replace(/^\/uploads\//, "").split("/") }),
  });
  return { status: res.status, text: await res.text() };
}

async function classified() {
  const p = await classifiableProject(2);
  const config = {
    id: p.workflow.id,
    extractors_config: { q: { type: "question", task_key: "T0" } },
    reducers_config: { c: { type: "consensus" }, u: { type: "count", topic: "reduce_by_user" } },
  };
  expect((await engine.post("/workflows", { workflow: config }, p.owner.token)).status).toBe(201);
  const volunteer = await signedInUser();
  for (const [subject, answer] of [
    [p.subjects[0], 0],
    [p.subjects[0], 1],
    [p.subjects[1], 1],
  ] as const) {
    const body = classificationBody(p.workflow, [subject.id]);
    body.classifications.annotations = [{ task: "T0", value: answer }];
    expect((await api.post("/classifications", body, { token: volunteer.token })).status).toBe(201);
  }
  await drainPipeline();
  return { ...p, volunteer };
}

describe("engine data requests", () => {
  it.each([
    [
      "extracts",
      {},
      3,
      [
        "id",
        "classification_id",
        "classification_at",
        "subject_id",
        "user_id",
        "workflow_id",
        "extractor_key",
        "data",
        "created_at",
        "updated_at",
      ],
    ],
    [
      "subject_reductions",
      {},
      2,
      ["id", "reducer_key", "workflow_id", "subject_id", "subgroup", "data", "store", "created_at", "updated_at"],
    ],
    [
      "user_reductions",
      { user: true },
      1,
      ["id", "reducer_key", "workflow_id", "user_id", "subgroup", "data", "store", "created_at", "updated_at"],
    ],
  ])("builds the workflow's %s as a CSV and links it once complete", async (requested, opts, rows, columns) => {
    const p = await classified();
    const request = { requested_data: requested, ...((opts as { user?: boolean }).user ? { user_id: p.volunteer.user.id } : {}) };
    const created = await engine.post(`/workflows/${p.workflow.id}/data_requests`, { data_request: request }, p.owner.token);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      exportable_id: String(p.workflow.id),
      exportable_type: "Workflow",
      status: "pending",
      requested_data: requested,
      url: null,
    });
    await drainPipeline();
    const shown = await engine.get(`/workflows/${p.workflow.id}/data_requests/${created.body.id}`, p.owner.token);
    expect(shown.body.status).toBe("complete");
    const file = await download(shown.body.url);
    expect(file.status).toBe(200);
    const records = parse(file.text, { columns: true }) as Record<string, string>[];
    expect(Object.keys(records[0])).toEqual(columns);
    expect(records).toHaveLength(rows);
    for (const r of records) expect(Number(r.workflow_id)).toBe(p.workflow.id);
    // Extracts are written as the pipeline gets to them: compare without order.
    if (requested === "extracts") expect(records.map((r) => r.data).sort()).toEqual(['{"0":1}', '{"1":1}', '{"1":1}']);
    expect((await engine.get(`/workflows/${p.workflow.id}/data_requests`, p.owner.token)).body.map((r: { id: number }) => r.id)).toEqual([
      created.body.id,
    ]);
    // Without the signature the file is not served.
    expect((await download(shown.body.url.split("?")[0])).status).toBe(403);
  });

  // A subgroup is a volunteer's free text when a reducer groups by a text answer: a spreadsheet opening the
  // CSV must not run it as a formula.
  it("writes no cell a spreadsheet would run as a formula", async () => {
    const p = await classified();
    const hostile = ['=HYPERLINK("https://evil.test","x")', "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1"];
    await db().subjectReduction.createMany({
      data: hostile.map((subgroup, i) => ({
        workflowId: p.workflow.id,
        subjectId: p.subjects[0].id,
        reducerKey: "g",
        subgroup,
        data: i === 0 ? -5 : { [subgroup]: 1 },
      })),
    });
    const created = await engine.post(
      `/workflows/${p.workflow.id}/data_requests`,
      { data_request: { requested_data: "subject_reductions" } },
      p.owner.token,
    );
    await drainPipeline();
    const shown = await engine.get(`/workflows/${p.workflow.id}/data_requests/${created.body.id}`, p.owner.token);
    const records = (parse((await download(shown.body.url)).text, { columns: true }) as Record<string, string>[]).filter(
      (r) => r.reducer_key === "g",
    );
    expect(records.map((r) => r.subgroup)).toEqual(hostile.map((s) => `'${s}`));
    // A JSON cell stays JSON: a negative number is no formula, an object starts with "{".
    expect(records.map((r) => JSON.parse(r.data))).toEqual([-5, ...hostile.slice(1).map((s) => ({ [s]: 1 }))]);
  });

  // Each request is a whole export: asking again while one runs answers that one instead of queueing another.
  it("answers the same request's pending export instead of starting another", async () => {
    const p = await classified();
    const path = `/workflows/${p.workflow.id}/data_requests`;
    const ask = (data_request: object) => engine.post(path, { data_request }, p.owner.token);
    const first = await ask({ requested_data: "subject_reductions" });
    expect(first.status).toBe(201);
    const again = await Promise.all([ask({ requested_data: "subject_reductions" }), ask({ requested_data: "subject_reductions" })]);
    expect(again.map((r) => [r.status, r.body.id])).toEqual([
      [200, first.body.id],
      [200, first.body.id],
    ]);
    const other = await ask({ requested_data: "subject_reductions", subgroup: "_default" });
    expect(other.status).toBe(201);
    expect(other.body.id).not.toBe(first.body.id);
    expect((await engine.get(path, p.owner.token)).body).toHaveLength(2);
    // Once it has finished, the next request makes a new one.
    await drainPipeline();
    const later = await ask({ requested_data: "subject_reductions" });
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);
  });

  it("refuses bad requests and those who may not configure the workflow", async () => {
    const p = await classifiableProject(1);
    await engine.post("/workflows", { workflow: { id: p.workflow.id } }, p.owner.token);
    const tester = await signedInUser();
    await grantProjectRole(p.project.id, tester.user.id, ["tester"]);
    const path = `/workflows/${p.workflow.id}/data_requests`;
    const cases: [string, Promise<{ status: number; body: any }>, number, RegExp][] = [
      [
        "unknown data",
        engine.post(path, { data_request: { requested_data: "classifications" } }, p.owner.token),
        422,
        /requested_data must be one of extracts, subject_reductions, user_reductions/,
      ],
      ["no envelope", engine.post(path, { requested_data: "extracts" }, p.owner.token), 422, /data_request/],
      [
        "user of subject reductions",
        engine.post(path, { data_request: { requested_data: "subject_reductions", user_id: 3 } }, p.owner.token),
        422,
        /not by user/,
      ],
      [
        "subgroup of extracts",
        engine.post(path, { data_request: { requested_data: "extracts", subgroup: "x" } }, p.owner.token),
        422,
        /no subgroup/,
      ],
      ["a tester", engine.post(path, { data_request: { requested_data: "extracts" } }, tester.token), 403, /owners and collaborators/],
      ["a missing request", engine.get(`${path}/99999999`, p.owner.token), 404, /Couldn't find DataRequest/],
    ];
    for (const [name, send, status, message] of cases) {
      const res = await send;
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toMatch(message);
    }
    expect((await engine.get(path, p.owner.token)).body).toEqual([]);
  });
});
