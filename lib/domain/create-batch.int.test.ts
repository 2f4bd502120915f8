// Classifications created together in one statement (the create batcher: lib/db/statement-batcher.ts).
// createClassification hands its item to the batcher before its first await, so calls made one after the
// other in the same tick reach it in call order: the first two go alone (two statements in flight), the
// rest wait and go together. Each case checks the grouping happened (createBatchStats) and that every item
// got the answer it would have got alone.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { verifyTokenSignature } from "@/lib/auth/tokens";
import { ANONYMOUS, type Caller } from "@/lib/auth/actor";
import { errorResponse } from "@/lib/http/respond";
import { classifiableProject, classificationBody, grantProjectRole, signedInUser } from "@/test/factories";
import { scopedToken } from "@/test/token-cases";
import { foldClassificationCounts } from "./fold-classification-counts";
import { createBatchStats, createClassification, ZCreateClassification } from "./create-classification";

type Workflow = Parameters<typeof classificationBody>[0];
interface Call {
  token?: string;
  workflow: Workflow;
  subjects: number[];
  extra?: Record<string, unknown>;
  key?: string;
}

const callerOf = async (token?: string): Promise<Caller> =>
  token ? { claims: await verifyTokenSignature(token.replace(/^Bearer /, "")) } : { actor: ANONYMOUS };

/** Starts every call in the same tick (in order), then waits for all: status 201 or the error's status. */
async function together(calls: Call[]) {
  const callers = await Promise.all(calls.map((c) => callerOf(c.token)));
  const before = createBatchStats();
  const pending = calls.map((c, i) =>
    createClassification(
      callers[i],
      ZCreateClassification.parse(classificationBody(c.workflow, c.subjects, c.extra).classifications),
      "10.0.0.1",
      c.key ?? null,
    ).then(
      (r) => ({ status: r.replayed ? 200 : 201, id: r.classification.id, metadata: r.classification.metadata as Record<string, unknown> }),
      (e: unknown) => ({ status: errorResponse(e).status, id: null, metadata: null }),
    ),
  );
  const results = await Promise.all(pending);
  const after = createBatchStats();
  return {
    results,
    statements: after.statements - before.statements,
    items: after.items - before.items,
    failedGroups: after.failedGroups - before.failedGroups,
  };
}

describe("classifications created together in one statement", () => {
  it("answers each item as it would be answered alone: checks, anonymous, tokens, gold standard", async () => {
    const { workflow, project, subjects } = await classifiableProject(10, {
      retirement: { criteria: "classification_count", options: { count: 50 } },
    });
    const other = await classifiableProject(1);
    const volunteers = await Promise.all(Array.from({ length: 6 }, () => signedInUser()));
    const expert = await signedInUser();
    await grantProjectRole(project.id, expert.user.id, ["expert"]);
    const revoked = await scopedToken(volunteers[5], ["classification"], true);
    const cases: { name: string; call: Call; status: number }[] = [
      { name: "alone 1", call: { token: volunteers[0].token, workflow, subjects: [subjects[0].id] }, status: 201 },
      { name: "alone 2", call: { token: volunteers[1].token, workflow, subjects: [subjects[1].id] }, status: 201 },
      { name: "valid", call: { token: volunteers[2].token, workflow, subjects: [subjects[2].id] }, status: 201 },
      { name: "two subjects", call: { token: volunteers[3].token, workflow, subjects: [subjects[4].id, subjects[3].id] }, status: 201 },
      { name: "anonymous", call: { workflow, subjects: [subjects[5].id] }, status: 201 },
      { name: "another project's subject", call: { token: volunteers[4].token, workflow, subjects: [other.subjects[0].id] }, status: 422 },
      {
        name: "another project's workflow",
        call: { token: volunteers[4].token, workflow: other.workflow, subjects: [subjects[6].id] },
        status: 422,
      },
      {
        name: "a version the workflow never had",
        call: { token: volunteers[4].token, workflow: { ...workflow, majorVersion: 9 }, subjects: [subjects[7].id] },
        status: 422,
      },
      {
        name: "gold standard by a volunteer",
        call: { token: volunteers[0].token, workflow, subjects: [subjects[8].id], extra: { gold_standard: true } },
        status: 403,
      },
      {
        name: "gold standard by an expert",
        call: { token: expert.token, workflow, subjects: [subjects[9].id], extra: { gold_standard: true } },
        status: 201,
      },
      { name: "a revoked token", call: { token: revoked, workflow, subjects: [subjects[6].id] }, status: 401 },
    ];
    const { results, statements, items } = await together(cases.map((c) => c.call));
    expect(Object.fromEntries(cases.map((c, i) => [c.name, results[i].status]))).toEqual(
      Object.fromEntries(cases.map((c) => [c.name, c.status])),
    );
    // Two alone, the other nine in one statement.
    expect({ statements, items }).toEqual({ statements: 3, items: 11 });
    const created = results.filter((r) => r.status === 201).map((r) => r.id);
    expect(new Set(created).size).toBe(6);
    const stored = await db().classification.findMany({ where: { workflowId: workflow.id }, orderBy: { id: "asc" } });
    expect(stored.map((c) => c.id).sort()).toEqual([...created].sort());
    expect(stored.find((c) => c.userId === expert.user.id)?.goldStandard).toBe(true);
    expect(stored.find((c) => c.userId === volunteers[3].user.id)?.subjectIds).toEqual(
      [subjects[3].id, subjects[4].id].sort((a, b) => a - b),
    );
    expect(stored.filter((c) => c.userId === null)).toHaveLength(1);
    // Counted once each: subject-workflow rows, the counters, seen sets.
    const sws = await db().subjectWorkflowStatus.findMany({ where: { workflowId: workflow.id } });
    expect(Object.fromEntries(sws.map((s) => [s.subjectId, s.classificationsCount]))).toEqual(
      Object.fromEntries([0, 1, 2, 3, 4, 5, 9].map((i) => [subjects[i].id, 1])),
    );
    await foldClassificationCounts();
    expect((await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } })).classificationsCount).toBe(6);
    expect(await db().userSeenSubject.count({ where: { workflowId: workflow.id } })).toBe(6);
    expect(await db().classification.count({ where: { workflowId: other.workflow.id } })).toBe(0);
  });

  it("keeps seen_before, idempotency keys and subjects apart: items that meet go in later statements", async () => {
    const { workflow, subjects } = await classifiableProject(4);
    const [a, b, c] = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
    await together([{ token: a.token, workflow, subjects: [subjects[0].id] }]);
    const { results, statements, items } = await together([
      { token: b.token, workflow, subjects: [subjects[3].id] }, // alone
      { token: c.token, workflow, subjects: [subjects[2].id] }, // alone
      { token: a.token, workflow, subjects: [subjects[0].id] }, // seen before
      { token: a.token, workflow, subjects: [subjects[1].id] },
      { token: b.token, workflow, subjects: [subjects[0].id] }, // meets a's subject 0: next statement
      { token: c.token, workflow, subjects: [subjects[1].id], key: "k1" }, // meets a's subject 1
      { token: c.token, workflow, subjects: [subjects[1].id], key: "k1" }, // meets the key too: a replay
      { workflow, subjects: [subjects[3].id] }, // anonymous, meets nothing waiting
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201, 200, 201]);
    expect(results.map((r) => r.metadata?.seen_before ?? false)).toEqual([false, false, true, false, false, false, false, false]);
    expect(results[6].id).toBe(results[5].id);
    // [b3] [c2], then (as they end) [a0 a1 anon3] [b0 c1:k1] [c1:k1], or with anon3 alone when [c2] ends first.
    expect(items).toBe(8);
    expect(statements).toBeGreaterThanOrEqual(5);
    expect(statements).toBeLessThanOrEqual(6);
    const sws = await db().subjectWorkflowStatus.findMany({ where: { workflowId: workflow.id } });
    expect(Object.fromEntries(sws.map((s) => [s.subjectId, s.classificationsCount]))).toEqual({
      [subjects[0].id]: 2, // a (the repeat does not count) and b
      [subjects[1].id]: 2, // a and c (once, however often the key is sent)
      [subjects[2].id]: 1,
      [subjects[3].id]: 2, // b and the anonymous volunteer
    });
  });

  it("retires subjects whose deciding classifications share a statement, exactly once", async () => {
    const { workflow, project, subjects } = await classifiableProject(6, {
      retirement: { criteria: "classification_count", options: { count: 2 } },
    });
    const volunteers = await Promise.all(Array.from({ length: 2 }, () => signedInUser()));
    const calls = volunteers.flatMap((v) => subjects.map((s) => ({ token: v.token, workflow, subjects: [s.id] })));
    const { results, items, statements } = await together(calls);
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(items - statements).toBeGreaterThan(0);
    const sws = await db().subjectWorkflowStatus.findMany({ where: { workflowId: workflow.id } });
    expect(sws.map((s) => [s.classificationsCount, s.retirementReason])).toEqual(subjects.map(() => [2, "classification_count"]));
    await foldClassificationCounts();
    expect((await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } })).retiredSetMemberSubjectsCount).toBe(6);
    expect((await db().project.findUniqueOrThrow({ where: { id: project.id } })).retiredSubjectsCount).toBe(6);
  });

  it("never deadlocks or fails when overlapping multi-subject classifications and raced retries spread over statements", async () => {
    const { workflow, subjects } = await classifiableProject(8);
    const volunteers = await Promise.all(Array.from({ length: 8 }, () => signedInUser()));
    // Volunteer v: subjects v and v+1 sent twice with one key (a retry racing the original), and subject v+4.
    const calls = volunteers.flatMap((v, i) => {
      const pair = { token: v.token, workflow, subjects: [subjects[i].id, subjects[(i + 1) % 8].id], key: `pair-${i}` };
      return [pair, { token: v.token, workflow, subjects: [subjects[(i + 4) % 8].id] }, pair];
    });
    const { results, items, statements } = await together(calls);
    expect(items - statements).toBeGreaterThan(0);
    expect(results.map((r) => r.status)).toEqual(volunteers.flatMap(() => [201, 201, 200]));
    const sws = await db().subjectWorkflowStatus.findMany({ where: { workflowId: workflow.id } });
    expect(sws.map((s) => s.classificationsCount)).toEqual(subjects.map(() => 3));
    expect(await db().classification.count({ where: { workflowId: workflow.id } })).toBe(16);
  });

  it("tries each item of a failed statement again alone: only the item at fault fails, with a 4xx", async () => {
    const { workflow, subjects } = await classifiableProject(6);
    const volunteers = await Promise.all(Array.from({ length: 6 }, () => signedInUser()));
    // PostgreSQL's jsonb cannot hold the NUL character: the statement carrying this item fails as a whole.
    const nul = { annotations: [{ task: "T0", value: "a\u0000b" }] };
    const { results, failedGroups } = await together(
      volunteers.map((v, i) => ({ token: v.token, workflow, subjects: [subjects[i].id], extra: i === 4 ? nul : {} })),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 422, 201]);
    expect(failedGroups).toBe(1);
    expect(await db().classification.count({ where: { workflowId: workflow.id } })).toBe(5);
    const sws = await db().subjectWorkflowStatus.findMany({ where: { workflowId: workflow.id } });
    expect(sws.map((s) => s.subjectId).sort()).toEqual([0, 1, 2, 3, 5].map((i) => subjects[i].id).sort());
  });
});
