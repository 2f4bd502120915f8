import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { engine } from "@/test/engine";
import { classifiableProject, classificationBody, signedInUser } from "@/test/factories";
import { dispatchEngineInbox, processEngineInbox } from "./engine-inbox";

// The dispatcher hands the engine only what it would run: classifications of workflows with an active
// engine configuration (and ids component A lacks, posted by external forwarders). Others leave the inbox
// without a job.

const config = (id: number, status: string) => ({
  id,
  status,
  extractors_config: { q: { type: "question", task_key: "T0" } },
  reducers_config: { c: { type: "consensus" } },
  rules_config: [],
});

/** Ids of classifications that are in an engine job (waiting or run: a run job leaves its extracts). */
async function handed(ids: number[]): Promise<number[]> {
  const rows = await db().$queryRawUnsafe<{ id: number }[]>(
    `SELECT DISTINCT x::int AS id FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id,
       json_array_elements_text((j.payload::json)->'classification_ids') x
     WHERE t.identifier = 'engine/classification-batch' AND x::int = ANY($1::int[])
     UNION SELECT classification_id FROM extracts WHERE classification_id = ANY($1::int[])`,
    ids,
  );
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

async function inInbox(ids: number[]): Promise<number[]> {
  const rows = await db().$queryRawUnsafe<{ id: number }[]>(
    `SELECT classification_id AS id FROM engine_inbox WHERE classification_id = ANY($1::int[]) ORDER BY 1`,
    ids,
  );
  return rows.map((r) => r.id);
}

/** The workflow of each classification a test puts in the inbox itself. */
const workflowOf = new Map<number, number>();

describe("engine inbox", () => {
  it("receives classifications of active engine workflows only, and the dispatcher makes jobs of nothing else", async () => {
    const made = await Promise.all(
      ["none", "active", "paused", "halted"].map(async (status) => {
        const p = await classifiableProject(1);
        if (status !== "none")
          expect((await engine.post("/workflows", { workflow: config(p.workflow.id, status) }, p.owner.token)).status).toBe(201);
        const res = await api.post("/classifications", classificationBody(p.workflow, [p.subjects[0].id]), {
          token: (await signedInUser()).token,
        });
        expect(res.status).toBe(201);
        workflowOf.set(Number(res.body.classifications[0].id), p.workflow.id);
        return [status, Number(res.body.classifications[0].id)] as const;
      }),
    );
    const id = Object.fromEntries(made);
    // The create put only the active workflow's classification in the inbox (or another file's drain has
    // already made it a job, or run it).
    expect([...(await inInbox(Object.values(id))), ...(await handed(Object.values(id)))]).toEqual([id.active]);

    // The dispatcher checks again (a configuration may be paused or removed after the create): rows of
    // workflows the engine does not run leave the inbox without a job. An id component A does not have
    // (an external forwarder's classification) always goes on.
    const foreign = 2_000_000_000 - Math.floor(Math.random() * 1_000_000);
    workflowOf.set(foreign, workflowOf.get(id.active)!);
    const others = [id.none, id.paused, id.halted, foreign];
    await db().$executeRawUnsafe(
      `INSERT INTO engine_inbox (classification_id, workflow_id) SELECT * FROM unnest($1::int[], $2::int[])`,
      others,
      others.map((o) => workflowOf.get(o)),
    );
    while ((await dispatchEngineInbox()) > 0);
    expect(await inInbox([...others, id.active])).toEqual([]);
    expect(await handed([...others, id.active])).toEqual([id.active, foreign].sort((a, b) => a - b));
  });

  it("built-in queue: a consumer takes waiting classifications in the transaction that extracts them, and makes no job", async () => {
    const p = await classifiableProject(2);
    expect((await engine.post("/workflows", { workflow: config(p.workflow.id, "active") }, p.owner.token)).status).toBe(201);
    const volunteer = await signedInUser();
    const ids: number[] = [];
    for (const s of p.subjects) {
      const res = await api.post("/classifications", classificationBody(p.workflow, [s.id]), { token: volunteer.token });
      expect(res.status).toBe(201);
      ids.push(Number(res.body.classifications[0].id));
    }
    const inactive = await classifiableProject(1);
    const other = await api.post("/classifications", classificationBody(inactive.workflow, [inactive.subjects[0].id]), {
      token: volunteer.token,
    });
    const otherId = Number(other.body.classifications[0].id);
    await db().$executeRawUnsafe(
      `INSERT INTO engine_inbox (classification_id, workflow_id) VALUES ($1, $2)`,
      otherId,
      inactive.workflow.id,
    );
    let taken = 0;
    for (let n = await processEngineInbox(); n > 0; n = await processEngineInbox()) taken += n;
    expect(taken).toBeGreaterThanOrEqual(3);
    expect(await inInbox([...ids, otherId])).toEqual([]);
    const extracted = await db().extract.findMany({
      where: { classificationId: { in: [...ids, otherId] } },
      orderBy: { classificationId: "asc" },
    });
    expect(extracted.map((e) => e.classificationId)).toEqual(ids); // the inactive workflow's left without work
    const jobs = await db().$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
       WHERE t.identifier = 'engine/classification-batch' AND (j.payload::jsonb)->'classification_ids' ?| $1::text[]`,
      [...ids, otherId].map(String),
    );
    expect(jobs[0].n).toBe(0);
  });
});
