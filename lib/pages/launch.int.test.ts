import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { createProject, createSubjectSet, createWorkflow, signedInUser } from "@/test/factories";
import { launchStatus, stageOf } from "./launch";

// The lab's launch stepper reads where a project stands from the established flags, what it still needs
// before a review, and the last refusal with its reason.

describe("stageOf", () => {
  it.each([
    [{}, "draft"],
    [{ betaRequested: true }, "beta_review"],
    [{ betaRequested: true, beta: true }, "beta"],
    [{ beta: true, launchRequested: true }, "launch_review"],
    [{ beta: true, launchRequested: true, launchApproved: true }, "launched"],
    // An admin's approval outranks the flags before it (set through the API in any order).
    [{ launchApproved: true }, "launched"],
  ])("%j is %s", (flags, stage) => {
    expect(stageOf({ beta: false, betaRequested: false, launchApproved: false, launchRequested: false, ...flags })).toBe(stage);
  });
});

describe("launchStatus", () => {
  it("ticks the readiness checklist as the project gains what a review needs", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    const done = async () => Object.fromEntries((await launchStatus(project.id))!.checklist.map((c) => [c.key, c.done]));
    expect(await done()).toEqual({ active_workflow: false, subjects: false, tutorial: false, retirement: false });

    const workflow = await createWorkflow(project.id);
    // An empty set linked to it is not subjects.
    await createSubjectSet(project.id, 0, { workflowIds: [workflow.id] });
    expect(await done()).toEqual({ active_workflow: true, subjects: false, tutorial: false, retirement: false });
    await createSubjectSet(project.id, 2, { workflowIds: [workflow.id] });
    await db().tutorial.create({ data: { projectId: project.id, steps: [] } });
    expect(await done()).toEqual({ active_workflow: true, subjects: true, tutorial: false, retirement: false });
    await db().tutorial.create({ data: { projectId: project.id, steps: [{ content: "Look for animals" }] } });
    await db().workflow.update({
      where: { id: workflow.id },
      data: { retirement: { criteria: "classification_count", options: { count: 5 } } },
    });
    expect(await done()).toEqual({ active_workflow: true, subjects: true, tutorial: true, retirement: true });
    expect((await launchStatus(project.id))!.ready).toBe(true);

    // Only active workflows count.
    await db().workflow.update({ where: { id: workflow.id }, data: { active: false } });
    expect(await done()).toEqual({ active_workflow: false, subjects: false, tutorial: true, retirement: false });
    expect(await launchStatus(2_000_000_000)).toBeNull();
  });

  it("shows a refusal and its reason until the team asks again, and forgets it once approved", async () => {
    const admin = await signedInUser({ admin: true });
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const put = (body: object, token: string) =>
      api.put(`/projects/${project.id}`, { projects: body }, { token, headers: { "if-match": "*" } });
    expect((await put({ beta_requested: true }, owner.token)).status).toBe(200);
    expect(await launchStatus(project.id)).toMatchObject({ stage: "beta_review", refusal: null });

    const refused = await api.post(
      `/projects/${project.id}/review_refusals`,
      { review_refusals: { review: "beta", reason: "Add a tutorial." } },
      { token: admin.token },
    );
    expect(refused.status).toBe(201);
    expect(await launchStatus(project.id)).toMatchObject({ stage: "draft", refusal: { review: "beta", reason: "Add a tutorial." } });

    expect((await put({ beta_requested: true }, owner.token)).status).toBe(200);
    expect(await launchStatus(project.id)).toMatchObject({ stage: "beta_review", refusal: null });
    expect((await put({ beta_approved: true }, admin.token)).status).toBe(200);
    expect(await launchStatus(project.id)).toMatchObject({ stage: "beta", refusal: null });

    // The launch's refusal is the launch's: the beta one above is not shown again.
    expect((await put({ launch_requested: true }, owner.token)).status).toBe(200);
    await api.post(`/projects/${project.id}/review_refusals`, { review_refusals: { review: "launch" } }, { token: admin.token });
    expect(await launchStatus(project.id)).toMatchObject({ stage: "beta", refusal: { review: "launch", reason: null } });
    expect((await put({ launch_requested: true }, owner.token)).status).toBe(200);
    expect((await put({ launch_approved: true }, admin.token)).status).toBe(200);
    const launched = await launchStatus(project.id);
    expect(launched).toMatchObject({ stage: "launched", refusal: null });
    expect((await db().project.findUniqueOrThrow({ where: { id: project.id } })).launchDate).toBeInstanceOf(Date);
  });
});
