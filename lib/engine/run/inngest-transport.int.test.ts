import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { engine } from "@/test/engine";
import { classifiableProject } from "@/test/factories";
import { EVENTS } from "./events";
import { classificationBatch } from "./engine-inbox";
import { engineTasks } from "./pipeline";

// With an Inngest server configured, the built-in queue's jobs are an outbox: each job sends its events to
// Inngest and runs no stage itself. A local HTTP server stands in for Inngest's event API here.

const received: { url: string; events: { name: string; data: Record<string, unknown> }[] }[] = [];
let status = 200;
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    if (status === 200) received.push({ url: req.url ?? "", events: JSON.parse(body) });
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(status === 200 ? { ids: [], status } : { error: "unavailable" }));
  });
});

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  process.env.INNGEST_DEV = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  delete process.env.INNGEST_DEV;
  server.close();
});

describe("the Inngest transport", () => {
  it("sends a batch of classifications as one classification.received event each, and runs no stage here", async () => {
    const { owner, workflow, subjects } = await classifiableProject(1);
    const config = {
      id: workflow.id,
      extractors_config: { q: { type: "question", task_key: "T0" } },
      reducers_config: { c: { type: "count" } },
    };
    expect((await engine.post("/workflows", { workflow: config }, owner.token)).status).toBe(201);
    const ids = [1_700_000_000 - workflow.id * 10, 1_700_000_001 - workflow.id * 10];
    // Classifications the built-in queue would extract at once.
    await db().$executeRawUnsafe(
      `INSERT INTO engine_classifications (id, workflow_id, data)
        SELECT i, $2, jsonb_build_object('id', i, 'workflow_id', $2::int, 'subject_id', $3::int, 'annotations', '[{"task":"T0","value":0}]'::jsonb)
        FROM unnest($1::int[]) i`,
      ids,
      workflow.id,
      subjects[0].id,
    );
    await classificationBatch({ classification_ids: ids });
    const sent = received.flatMap((r) => r.events).filter((e) => ids.includes(e.data.classification_id as number));
    expect(sent.map((e) => [e.name, e.data])).toEqual(ids.map((id) => [EVENTS.classificationReceived, { classification_id: id }]));
    expect(received.at(-1)!.url).toMatch(/^\/e\//);
    expect(await db().extract.count({ where: { subjectId: subjects[0].id } })).toBe(0);
  });

  it("forwards each stage's event from its job", async () => {
    const data = { workflow_id: 41, topic: "subject", target_id: 7 };
    await engineTasks[EVENTS.extractsChanged]!(data, {} as never);
    expect(received.at(-1)!.events.map((e) => [e.name, e.data])).toEqual([[EVENTS.extractsChanged, data]]);
  });

  it("fails the job when Inngest does not take the events, so the queue retries it", async () => {
    status = 503;
    try {
      await expect(classificationBatch({ classification_ids: [12] })).rejects.toThrow();
    } finally {
      status = 200;
    }
  });
});
