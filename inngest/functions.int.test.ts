import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { engine } from "@/test/engine";
import { classifiableProject, classificationBody, signedInUser } from "@/test/factories";
import { EVENTS } from "@/lib/engine/run/events";
import { applyRulesFn, extractClassificationFn, functions, performActionFn, reduceFn } from "./functions";

// Each Inngest function with @inngest/test: it runs its stage as the "run-stage" step against the real
// database and sends the events the stage emitted as the "emit-events" step. The chain below walks one
// classification through every function by feeding each function the events the previous one sent.

/** Runs a function on one event; sending is mocked (no Inngest server here), and what it would send is returned. */
async function executeWith(fn: InngestTestEngine.Options["function"], event: { name: string; data: object }) {
  const t = new InngestTestEngine({ function: fn, steps: [{ id: "emit-events", handler: () => ({ ids: [] }) }] });
  const { result, ctx, state, error } = await t.execute({ events: [event as never] });
  expect(error).toBeUndefined();
  const send = ctx.step.sendEvent as unknown as { mock: { calls: unknown[][] } };
  const sent = (send.mock.calls[0]?.[1] ?? []) as { name: string; data: Record<string, unknown> }[];
  return { result, ctx, state, sent };
}

describe("Inngest functions", () => {
  it("walk a classification through extract → reduce → rules → action, each step persisting and emitting the next event", async () => {
    const { owner, workflow, subjects } = await classifiableProject(1);
    await engine.post(
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
    const volunteer = await signedInUser();
    const created = await api.post("/classifications", classificationBody(workflow, [subjects[0].id]), { token: volunteer.token });
    const classificationId = Number(created.body.classifications[0].id);

    const extract = await executeWith(extractClassificationFn, {
      name: EVENTS.classificationReceived,
      data: { classification_id: classificationId },
    });
    expect(extract.ctx.step.run).toHaveBeenCalledWith("run-stage", expect.any(Function));
    expect(extract.result).toEqual({ emitted: 1 });
    expect(extract.sent).toEqual([
      { name: EVENTS.extractsChanged, data: { workflow_id: workflow.id, topic: "subject", target_id: subjects[0].id } },
    ]);
    expect(await db().extract.count({ where: { classificationId } })).toBe(1);

    const reduce = await executeWith(reduceFn, extract.sent[0]);
    expect(reduce.sent).toEqual([
      { name: EVENTS.reductionsChanged, data: { workflow_id: workflow.id, topic: "subject", target_id: subjects[0].id } },
    ]);
    const reduction = await db().subjectReduction.findFirstOrThrow({
      where: { workflowId: workflow.id, subjectId: subjects[0].id, reducerKey: "c" },
    });
    expect(reduction.data).toEqual({ most_likely: "0", num_votes: 1, agreement: 1 });

    const rules = await executeWith(applyRulesFn, reduce.sent[0]);
    expect(rules.sent).toHaveLength(1);
    expect(rules.sent[0].name).toBe(EVENTS.actionCreated);
    const actionId = Number(rules.sent[0].data.action_id);

    const perform = await executeWith(performActionFn, rules.sent[0]);
    expect(perform.result).toEqual({ emitted: 0 });
    expect(perform.ctx.step.sendEvent).not.toHaveBeenCalled();
    expect((await db().engineAction.findUniqueOrThrow({ where: { id: actionId } })).status).toBe("completed");
    const sws = await db().subjectWorkflowStatus.findUniqueOrThrow({
      where: { subjectId_workflowId: { subjectId: subjects[0].id, workflowId: workflow.id } },
    });
    expect(sws.retirementReason).toBe("consensus");

    // A replay (Inngest retrying the run) changes nothing and emits nothing new to act on.
    const replay = await executeWith(applyRulesFn, reduce.sent[0]);
    expect(replay.sent).toEqual([]);
    expect(await db().engineAction.count({ where: { workflowId: workflow.id } })).toBe(1);
  });

  it("declare their triggers, per-subject concurrency for the reducing stages, and a per-subject debounce for reduce", () => {
    type Config = {
      id: string;
      triggers: { event: string }[];
      concurrency?: { key: string; limit: number }[];
      debounce?: { key: string; period: string; timeout: string };
    };
    const configs = functions.map((f) => f["opts" as keyof typeof f] as unknown as Config);
    expect(Object.fromEntries(configs.map((c) => [c.id, c.triggers[0].event]))).toEqual({
      "extract-classification": EVENTS.classificationReceived,
      "external-extract": EVENTS.externalExtractRequested,
      reduce: EVENTS.extractsChanged,
      "external-reduce": EVENTS.externalReduceRequested,
      "apply-rules": EVENTS.reductionsChanged,
      "perform-action": EVENTS.actionCreated,
      "perform-external-action": EVENTS.externalActionCreated,
    });
    for (const id of ["reduce", "apply-rules", "external-reduce"]) {
      expect(configs.find((c) => c.id === id)!.concurrency).toEqual([{ key: expect.stringContaining("event.data.target_id"), limit: 1 }]);
    }
    // A burst of extracts for one subject is reduced once.
    expect(configs.find((c) => c.id === "reduce")!.debounce).toEqual({
      key: configs.find((c) => c.id === "reduce")!.concurrency![0].key,
      period: "1s",
      timeout: "10s",
    });
    expect(configs.filter((c) => c.debounce).map((c) => c.id)).toEqual(["reduce"]);
  });

  it("fails a malformed event without retrying it", async () => {
    const t = new InngestTestEngine({ function: extractClassificationFn });
    const bad = await t.execute({
      events: [{ name: EVENTS.classificationReceived, data: { classification_id: "not-a-number" } } as never],
    });
    expect(bad.error).toMatchObject({ name: "NonRetriableError", message: expect.stringContaining("malformed") });
    expect(bad.ctx.step.run).not.toHaveBeenCalled();
  });
});
