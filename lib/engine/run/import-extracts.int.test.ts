import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { drainPipeline, engine } from "@/test/engine";
import { classifiableProject, grantProjectRole, signedInUser } from "@/test/factories";

// POST /engine/workflows/<id>/extracts/import (the Python client's import_caesar_data_extracts): machine
// extracts from a CSV at a URL, imported in the background, reduced like any extract.

const files = new Map<string, { status: number; body: string }>();
let server: http.Server;
let base = "";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const file = files.get(req.url ?? "");
    res.writeHead(file?.status ?? 404, { "content-type": "text/csv" });
    res.end(file?.body ?? "not here");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function serve(name: string, body: string, status = 200): string {
  files.set(`/${name}`, { status, body });
  return `${base}/${name}`;
}

const csvRow = (extractorKey: string, subjectId: number, data: object) => `${extractorKey},${subjectId},"${JSON.stringify(data).replace(/"/g, '""')}"`;

async function configured() {
  const p = await classifiableProject(2);
  const config = {
    id: p.workflow.id,
    extractors_config: { ml: { type: "external", url: "https://ml.example.org/never-called" } },
    reducers_config: { votes: { type: "stats", filters: { extractor_keys: ["ml"] } } },
    rules_config: [{ if: ["gte", ["lookup", "votes.galaxy", 0], ["const", 2]], then: [{ action: "retire_subject", reason: "consensus" }] }],
  };
  expect((await engine.post("/workflows", { workflow: config }, p.owner.token)).status).toBe(201);
  return p;
}

const job = (id: number) => db().backgroundJob.findUniqueOrThrow({ where: { id } });

describe("machine extracts import", () => {
  it("imports every row as an extract, reduces and acts on them; importing again replaces the data", async () => {
    const p = await configured();
    const [a, b] = p.subjects;
    const url = serve(`ml-${p.workflow.id}.csv`, ["extractor_key,subject_id,data", csvRow("ml", a.id, { galaxy: 2 }), csvRow("ml", b.id, { galaxy: 1 })].join("\n"));
    const started = await engine.post(`/workflows/${p.workflow.id}/extracts/import`, { file: url }, p.owner.token);
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ kind: "engine_extracts_import", status: "pending" });
    await drainPipeline();
    expect(await job(started.body.id)).toMatchObject({ status: "completed", progress: 2, total: 2 });

    const extracts = await engine.get(`/workflows/${p.workflow.id}/extractors/ml/extracts?subject_id=${a.id}`, p.owner.token);
    expect(extracts.body).toHaveLength(1);
    expect(extracts.body[0]).toMatchObject({ extractor_key: "ml", subject_id: a.id, user_id: null, data: { galaxy: 2 } });
    expect(extracts.body[0].classification_id).toBeLessThan(0);
    const reductions = await engine.get(`/workflows/${p.workflow.id}/subjects/${a.id}/reductions`, p.owner.token);
    expect(reductions.body.map((r: { data: unknown }) => r.data)).toEqual([{ galaxy: 2 }]);
    const retired = await db().subjectWorkflowStatus.findMany({ where: { workflowId: p.workflow.id, retiredAt: { not: null } } });
    expect(retired.map((s) => s.subjectId)).toEqual([a.id]);

    // Again, with new data for b: the same extract is updated (no second one), and b retires too.
    const again = serve(`ml-${p.workflow.id}-2.csv`, ["extractor_key,subject_id,data", csvRow("ml", b.id, { galaxy: 3 })].join("\n"));
    await engine.post(`/workflows/${p.workflow.id}/extracts/import`, { file: again }, p.owner.token);
    await drainPipeline();
    const bExtracts = await engine.get(`/workflows/${p.workflow.id}/extractors/ml/extracts?subject_id=${b.id}`, p.owner.token);
    expect(bExtracts.body.map((e: { data: unknown }) => e.data)).toEqual([{ galaxy: 3 }]);
    expect(await db().subjectWorkflowStatus.count({ where: { workflowId: p.workflow.id, retiredAt: { not: null } } })).toBe(2);
  });

  it.each([
    ["a row without a valid subject id", ["extractor_key,subject_id,data", 'ml,abc,"{}"'].join("\n"), 200, "line 2: subject_id must be a positive integer"],
    ["data that is not JSON", ["extractor_key,subject_id,data", "ml,5,{nope"].join("\n"), 200, "line 2: data must be JSON"],
    ["data that is not an object", ["extractor_key,subject_id,data", "ml,5,3"].join("\n"), 200, "line 2: data must be a JSON object"],
    ["a missing column", ["extractor_key,subject_id", "ml,5"].join("\n"), 200, "the CSV needs a column 'data'"],
    ["a file that is not there", "gone", 404, "answered 404"],
  ])("fails the job, importing nothing, for %s", async (_name, body, status, message) => {
    const p = await configured();
    const url = serve(`bad-${p.workflow.id}.csv`, body, status);
    const started = await engine.post(`/workflows/${p.workflow.id}/extracts/import`, { file: url }, p.owner.token);
    expect(started.status).toBe(202);
    await drainPipeline();
    const done = await job(started.body.id);
    expect(done.status).toBe("failed");
    expect(done.error).toContain(message);
    expect(await db().extract.count({ where: { workflowId: p.workflow.id } })).toBe(0);
  });

  it("refuses bad requests and those who may not configure the workflow, starting nothing", async () => {
    const p = await configured();
    const tester = await signedInUser();
    await grantProjectRole(p.project.id, tester.user.id, ["tester"]);
    const path = `/workflows/${p.workflow.id}/extracts/import`;
    const cases: [string, Promise<{ status: number; body: any }>, number, RegExp][] = [
      ["no file", engine.post(path, {}, p.owner.token), 422, /file \(the CSV's URL\) is required/],
      ["not a URL", engine.post(path, { file: "/etc/passwd" }, p.owner.token), 422, /http\(s\) URL/],
      ["another key", engine.post(path, { file: `${base}/x.csv`, extra: 1 }, p.owner.token), 422, /unknown key/],
      ["a tester", engine.post(path, { file: `${base}/x.csv` }, tester.token), 403, /owners and collaborators/],
      ["anonymous", engine.post(path, { file: `${base}/x.csv` }), 401, /bearer token/],
    ];
    for (const [name, send, status, message] of cases) {
      const res = await send;
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toMatch(message);
    }
    expect(await db().backgroundJob.count({ where: { projectId: p.project.id } })).toBe(0);
    // The import's job is listed among the project's background jobs for its editors.
    const url = serve(`ok-${p.workflow.id}.csv`, "extractor_key,subject_id,data\n");
    const started = await engine.post(path, { file: url }, p.owner.token);
    const listed = await api.get(`/background_jobs?project_id=${p.project.id}`, { token: p.owner.token });
    expect(listed.body.background_jobs.map((j: { id: string }) => Number(j.id))).toEqual([started.body.id]);
    // Finished while its file is still served (an empty CSV imports nothing).
    await drainPipeline();
    expect(await job(started.body.id)).toMatchObject({ status: "completed", total: 0 });
  });
});
