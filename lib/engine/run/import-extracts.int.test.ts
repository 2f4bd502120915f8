import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { drainPipeline, engine } from "@/test/engine";
import { classifiableProject, grantProjectRole, signedInUser } from "@/test/factories";
import { ownDatabase } from "@/test/own-database";

// POST /engine/workflows/<id>/extracts/import (the Python client's import_caesar_data_extracts): machine
// extracts from a CSV at a URL, imported in the background, reduced like any extract. The file server is on
// 127.0.0.1, which the outbound guard refuses: these tests allow its port alone (OUTBOUND_ALLOW_HOSTS), so
// a second local server, the "internal" one, stays out of reach. The file has a database of its own, so its
// import jobs run here, where that port is allowed, never in another test file's drain.
ownDatabase("import-extracts");

const SECRET = "root:x:0:0:SECRET-FIRST-LINE";
const files = new Map<string, { status: number; body: string; location?: string }>();
let server: http.Server;
let base = "";
let allowance = "";
const requests: string[] = [];
let internal: http.Server;
let internalBase = "";
let internalHits = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    const file = files.get(req.url ?? "");
    res.writeHead(file?.status ?? 404, { "content-type": "text/csv", ...(file?.location ? { location: file.location } : {}) });
    res.end(file?.body ?? "not here");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  allowance = `127.0.0.1:${port}`;
  process.env.OUTBOUND_ALLOW_HOSTS = allowance;
  internal = http.createServer((_req, res) => {
    internalHits++;
    res.end(`${SECRET}\nsecond line`);
  });
  await new Promise<void>((r) => internal.listen(0, "127.0.0.1", r));
  internalBase = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;
});
afterEach(() => {
  process.env.OUTBOUND_ALLOW_HOSTS = allowance;
  delete process.env.EXTRACTS_IMPORT_MAX_BYTES;
});
afterAll(async () => {
  delete process.env.OUTBOUND_ALLOW_HOSTS;
  await new Promise<void>((r) => internal.close(() => r()));
  await new Promise<void>((r) => server.close(() => r()));
});

function serve(name: string, body: string, status = 200, location?: string): string {
  files.set(`/${name}`, { status, body, location });
  return `${base}/${name}`;
}

const csvRow = (extractorKey: string, subjectId: number, data: object) =>
  `${extractorKey},${subjectId},"${JSON.stringify(data).replace(/"/g, '""')}"`;

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
    const url = serve(
      `ml-${p.workflow.id}.csv`,
      ["extractor_key,subject_id,data", csvRow("ml", a.id, { galaxy: 2 }), csvRow("ml", b.id, { galaxy: 1 })].join("\n"),
    );
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
    [
      "a row without a valid subject id",
      ["extractor_key,subject_id,data", 'ml,abc,"{}"'].join("\n"),
      200,
      "line 2: subject_id must be a positive integer",
    ],
    ["data that is not JSON", ["extractor_key,subject_id,data", "ml,5,{nope"].join("\n"), 200, "line 2: data must be JSON"],
    ["data that is not an object", ["extractor_key,subject_id,data", "ml,5,3"].join("\n"), 200, "line 2: data must be a JSON object"],
    [
      "a missing column",
      ["extractor_key,subject_id", "ml,5"].join("\n"),
      200,
      "the CSV needs the columns extractor_key, subject_id and data ('data' is missing)",
    ],
    ["a file that is not there", "gone", 404, "answered HTTP 404"],
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

  it("fails the job, importing nothing, for a row naming another project's subject (the engine's trust boundary)", async () => {
    const p = await configured();
    const other = await classifiableProject(1, { private: true });
    const url = serve(
      `foreign-${p.workflow.id}.csv`,
      [
        "extractor_key,subject_id,data",
        csvRow("ml", p.subjects[0].id, { galaxy: 2 }),
        csvRow("ml", other.subjects[0].id, { galaxy: 2 }),
      ].join("\n"),
    );
    const started = await engine.post(`/workflows/${p.workflow.id}/extracts/import`, { file: url }, p.owner.token);
    expect(started.status).toBe(202);
    await drainPipeline();
    const done = await job(started.body.id);
    expect(done.status).toBe("failed");
    expect(done.error).toContain(`line 3: subject ${other.subjects[0].id} is not a subject of workflow ${p.workflow.id}'s project`);
    expect(await db().extract.count({ where: { workflowId: p.workflow.id } })).toBe(0);
    expect(await db().extract.count({ where: { subjectId: other.subjects[0].id } })).toBe(0);
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

/** Starts an import of `url` as a workflow's owner and runs it: the finished job, stored and as the API shows it. */
async function importOnce(url: string) {
  const p = await configured();
  const started = await engine.post(`/workflows/${p.workflow.id}/extracts/import`, { file: url }, p.owner.token);
  expect(started.status).toBe(202);
  await drainPipeline();
  const done = await job(started.body.id);
  const shown = await api.get(`/background_jobs/${started.body.id}`, { token: p.owner.token });
  expect(shown.status).toBe(200);
  return { done, shown: JSON.stringify(shown.body) };
}

describe("extracts import through the outbound guard", () => {
  it("refuses the loopback file server when nothing allows it, fetching nothing", async () => {
    const url = serve("refused.csv", "extractor_key,subject_id,data\n");
    delete process.env.OUTBOUND_ALLOW_HOSTS;
    const before = requests.length;
    const { done } = await importOnce(url);
    expect(done).toMatchObject({ status: "failed", error: `could not download ${url}: address 127.0.0.1 is not allowed (loopback)` });
    expect(requests.length).toBe(before);
  });

  it.each([
    ["another local port", () => `${internalBase}/etc/passwd`, "address 127.0.0.1 is not allowed (loopback)"],
    [
      "localhost",
      () => `${internalBase.replace("127.0.0.1", "localhost")}/etc/passwd`,
      "host localhost resolves to a loopback address, which is not allowed",
    ],
    [
      "a redirect from the allowed server to another local port",
      () => serve("hop.csv", SECRET, 302, `${internalBase}/etc/passwd`),
      "redirect to a loopback address refused",
    ],
    [
      "a redirect to the metadata address",
      () => serve("meta.csv", "", 307, "http://169.254.169.254/latest/meta-data/"),
      "redirect to a link-local address refused",
    ],
    ["the metadata address", () => "http://169.254.169.254/latest/meta-data/", "address 169.254.169.254 is not allowed (link-local)"],
  ])("refuses %s, reaching nothing", async (_name, url, message) => {
    const before = internalHits;
    const { done, shown } = await importOnce(url());
    expect(done.status).toBe("failed");
    expect(done.error).toContain(message);
    expect(internalHits).toBe(before);
    expect(`${done.error} ${shown}`).not.toContain("SECRET");
  });

  it.each([
    [
      "a first line that is not the header",
      `${SECRET},b\nx,y`,
      "the CSV needs the columns extractor_key, subject_id and data ('extractor_key' is missing)",
    ],
    [
      "rows that do not fit the header",
      `${SECRET}\nml,5,{}`,
      "the file is not valid CSV: line 2: a row has another number of fields than the header",
    ],
    ["a stray quote", `extractor_key,subject_id,data\nml,5,"{}"${SECRET}`, "the file is not valid CSV: line 2:"],
    ["an opening quote inside a field", `extractor_key,subject_id,data\nml,5,${SECRET}"x"`, "the file is not valid CSV: line 2:"],
    ["an unclosed quote", `extractor_key,subject_id,data\nml,5,"${SECRET}`, "the file is not valid CSV:"],
  ])("names what is wrong with %s without quoting the file", async (_name, body, message) => {
    const { done, shown } = await importOnce(serve(`quoted-${body.length}.csv`, body));
    expect(done.status).toBe("failed");
    expect(done.error).toContain(message);
    expect(`${done.error} ${shown}`).not.toContain("SECRET");
  });

  it.each([404, 403, 410])("says HTTP %s and nothing of the answer's body", async (status) => {
    const url = serve(`status-${status}.csv`, SECRET, status);
    const { done, shown } = await importOnce(url);
    expect(done).toMatchObject({ status: "failed", error: `${url} answered HTTP ${status}` });
    expect(shown).not.toContain("SECRET");
  });

  it("refuses a file over EXTRACTS_IMPORT_MAX_BYTES", async () => {
    process.env.EXTRACTS_IMPORT_MAX_BYTES = "100";
    const { done } = await importOnce(serve("big.csv", `extractor_key,subject_id,data\n${"x".repeat(200)}`));
    expect(done).toMatchObject({ status: "failed", error: "the CSV is larger than 100 bytes (EXTRACTS_IMPORT_MAX_BYTES)" });
  });
});
