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

describe("engine inbox dispatch", () => {
  it("makes jobs for classifications of active engine workflows only; the rest leave the inbox", async () => {
    const made = await Promise.all(["none", "active", "paused", "halted"].map(async (status) => {
      const p = await classifiableProject(1);
      if (status !== "none") expect((await engine.post("/workflows", { workflow: config(p.workflow.id, status) }, p.owner.token)).status).toBe(201);
      const res = await api.post("/classifications", classificationBody(p.workflow, [p.subjects[0].id]), { token: (await signedInUser()).token });
      expect(res.status).toBe(201);
      return [status, Number(res.body.classifications[0].id)] as const;
    }));
    const id = Object.fromEntries(made);
    // An id component A does not have (an external forwarder's classification) always goes on.
    const foreign = 2_000_000_000 - Math.floor(Math.random() * 1_000_000);
    await db().$executeRawUnsafe(`INSERT INTO engine_inbox (classification_id) VALUES ($1)`, foreign);

    const all = [...Object.values(id), foreign];
    while ((await dispatchEngineInbox()) > 0);
    const left = await db().$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM engine_inbox WHERE classification_id = ANY($1::int[])`, all);
    expect(left[0].n).toBe(0);
    expect(await handed(all)).toEqual([id.active, foreign].sort((a, b) => a - b));
  });
});
