import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { classifiableProject, classificationBody, signedInUser } from "@/test/factories";
import { foldClassificationCounts } from "./fold-classification-counts";

describe("folding classification counts", () => {
  it("adds each completed classification to the counters exactly once, however often and concurrently it runs", async () => {
    const { workflow, project, subjects } = await classifiableProject(2);
    const v = await signedInUser();
    for (let i = 0; i < 6; i++) await api.post("/classifications", classificationBody(workflow, [subjects[i % 2].id]), { token: v.token });
    await api.post("/classifications", classificationBody(workflow, [subjects[0].id], { completed: false }), { token: v.token });
    expect(await db().classificationCountOutbox.count({ where: { workflowId: workflow.id } })).toBe(6);
    await Promise.all([foldClassificationCounts(), foldClassificationCounts(), foldClassificationCounts()]);
    await foldClassificationCounts();
    expect((await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } })).classificationsCount).toBe(6);
    expect((await db().project.findUniqueOrThrow({ where: { id: project.id } })).classificationsCount).toBe(6);
    expect(await db().classificationCountOutbox.count({ where: { workflowId: workflow.id } })).toBe(0);
  });
});
