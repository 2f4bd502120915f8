import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { engine } from "@/test/engine";
import { classifiableProject, classificationBody, signedInUser } from "@/test/factories";
import { dispatchEngineInbox } from "./engine-inbox";

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
        return [status, Number(res.body.classifications[0].id)] as const;
      }),
    );
    const id = Object.fromEntries(made);
    const inInbox = async (ids: number[]) =>
      (
        await db().$queryRawUnsafe<{ id: number }[]>(
          `SELECT classification_id AS id FROM engine_inbox WHERE classification_id = ANY($1::int[]) ORDER BY 1`,
          ids,
        )
      ).map((r) => r.id);
    // The create put only the active workflow's classification in the inbox (or another file's drain has
    // already made it a job, or run it).
    expect([...(await inInbox(Object.values(id))), ...(await handed(Object.values(id)))]).toEqual([id.active]);

    // The dispatcher checks again (a configuration may be paused or removed after the create): rows of
    // workflows the engine does not run leave the inbox without a job. An id component A does not have
    // (an external forwarder's classification) always goes on.
    const foreign = 2_000_000_000 - Math.floor(Math.random() * 1_000_000);
    const others = [id.none, id.paused, id.halted, foreign];
    await db().$executeRawUnsafe(`INSERT INTO engine_inbox (classification_id) SELECT unnest($1::int[])`, others);
    while ((await dispatchEngineInbox()) > 0);
    expect(await inInbox([...others, id.active])).toEqual([]);
    expect(await handed([...others, id.active])).toEqual([id.active, foreign].sort((a, b) => a - b));
  });
});
