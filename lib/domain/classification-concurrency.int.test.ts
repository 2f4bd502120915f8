import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { foldClassificationCounts } from "./fold-classification-counts";
import { api } from "@/test/http";
import { classifiableProject, classificationBody, signedInUser } from "@/test/factories";

describe("many volunteers classifying the same subjects at once", () => {
  it("leaves counters, seen sets and retirement exact", async () => {
    const { workflow, project, subjects } = await classifiableProject(4, {
      retirement: { criteria: "classification_count", options: { count: 10 } },
    });
    const volunteers = await Promise.all(Array.from({ length: 14 }, () => signedInUser()));
    // Every volunteer classifies every subject, some twice at the same moment (a double submit), plus
    // anonymous classifications of the first subject, all interleaved.
    const requests: Promise<{ status: number }>[] = [];
    for (const v of volunteers) {
      for (const s of subjects) {
        requests.push(api.post("/classifications", classificationBody(workflow, [s.id]), { token: v.token }));
        if (s.id === subjects[1].id) requests.push(api.post("/classifications", classificationBody(workflow, [s.id]), { token: v.token }));
      }
      requests.push(api.post("/classifications", classificationBody(workflow, [subjects[0].id])));
    }
    const results = await Promise.all(requests);
    expect(results.every((r) => r.status === 201)).toBe(true);
    const total = requests.length;

    const statuses = await db().subjectWorkflowStatus.findMany({ where: { workflowId: workflow.id }, orderBy: { subjectId: "asc" } });
    const bySubject = new Map(statuses.map((s) => [s.subjectId, s]));
    // Signed-in repeats do not count; anonymous ones always do.
    expect(bySubject.get(subjects[0].id)!.classificationsCount).toBe(14 + 14);
    for (const s of subjects.slice(1)) expect(bySubject.get(s.id)!.classificationsCount).toBe(14);
    for (const s of statuses) {
      expect(s.retiredAt).not.toBeNull();
      expect(s.retirementReason).toBe("classification_count");
    }
    await foldClassificationCounts();
    const w = await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } });
    const p = await db().project.findUniqueOrThrow({ where: { id: project.id } });
    expect(w.classificationsCount).toBe(total);
    expect(p.classificationsCount).toBe(total);
    expect(w.retiredSetMemberSubjectsCount).toBe(4);
    expect(p.retiredSubjectsCount).toBe(4);
    expect(await db().userSeenSubject.count({ where: { workflowId: workflow.id } })).toBe(14 * 4);
    const seenBefore = await db().classification.count({
      where: { workflowId: workflow.id, metadata: { path: ["seen_before"], equals: true } },
    });
    expect(seenBefore).toBe(14);
  });
});
