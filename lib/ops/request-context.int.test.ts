// A request's id goes with the work it causes: a classification's engine inbox row and the graphile-worker
// jobs a request adds carry it (the worker logs the job's lines with it), and the engine times each
// classification from its create to its extracts and to the retirement it completes, once committed.
// A database of this file's own: no other test file's drain takes the inbox rows it reads.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, pool } from "@/lib/db";
import { processEngineInbox } from "@/lib/engine/run/engine-inbox";
import { withLogContext } from "@/lib/log/context";
import { metrics } from "@/lib/log/metrics";
import { usePrivateDatabase } from "@/test/db-changes";
import { engine } from "@/test/engine";
import { classifiableProject, classificationBody } from "@/test/factories";
import { call } from "@/test/http";

beforeAll(async () => {
  await usePrivateDatabase("reqctx");
}, 60_000);

afterAll(async () => {
  await closeDb();
});

const histogramCount = async (h: ReturnType<typeof metrics>["createToExtract"]) =>
  (await h.get()).values.find((v) => v.metricName?.endsWith("_count"))?.value ?? 0;

describe("request ids in the work a request causes, and the pipeline's latencies", () => {
  it("the inbox row and the jobs a request adds carry its id; the engine observes create → extract and → retirement after its commit", async () => {
    const { owner, project, workflow, subjects } = await classifiableProject(2);
    const config = await engine.post(
      "/workflows",
      {
        workflow: {
          id: workflow.id,
          extractors_config: { q: { type: "question", task_key: "T0" } },
          reducers_config: { c: { type: "consensus" } },
          rules_config: [
            { if: ["gte", ["lookup", "c.num_votes", 0], ["const", 1]], then: [{ action: "retire_subject", reason: "consensus" }] },
          ],
        },
      },
      owner.token,
    );
    expect(config.status, config.text).toBe(201);

    for (const [i, s] of subjects.entries()) {
      const res = await withLogContext({ requestId: `req-create-${i}` }, () =>
        call("POST", "/api/classifications", { token: owner.token, body: classificationBody(workflow, [s.id]) }),
      );
      expect(res.status, res.text).toBe(201);
    }
    const { rows: inbox } = await pool().query<{ request_id: string; age: number }>(
      `SELECT request_id, extract(epoch FROM (now() AT TIME ZONE 'UTC') - created_at)::float8 AS age FROM engine_inbox WHERE workflow_id = $1 ORDER BY id`,
      [workflow.id],
    );
    expect(inbox.map((r) => r.request_id)).toEqual(["req-create-0", "req-create-1"]);
    for (const r of inbox) expect(Math.abs(r.age)).toBeLessThan(30); // created_at is UTC, as now() in UTC

    const exported = await withLogContext({ requestId: "req-export" }, () =>
      call("POST", `/api/projects/${project.id}/classifications_export`, {
        token: owner.token,
        body: { media: { content_type: "text/csv" } },
      }),
    );
    expect(exported.status, exported.text).toBeLessThan(300);
    const { rows: jobs } = await pool().query<{ payload: { request_id?: string } }>(
      `SELECT j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
       WHERE t.identifier = 'classifications_export' ORDER BY j.id DESC LIMIT 1`,
    );
    expect(jobs[0].payload.request_id).toBe("req-export");

    const extracted = await histogramCount(metrics().createToExtract);
    const retired = await histogramCount(metrics().createToRetirement);
    while ((await processEngineInbox()) > 0) {}
    expect(await histogramCount(metrics().createToExtract)).toBe(extracted + 2);
    expect(await histogramCount(metrics().createToRetirement)).toBe(retired + 2);
    const { rows: done } = await pool().query(
      `SELECT count(*)::int AS n FROM subject_workflow_statuses WHERE workflow_id = $1 AND retired_at IS NOT NULL`,
      [workflow.id],
    );
    expect(done[0].n).toBe(2);
  });
});
