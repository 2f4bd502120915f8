import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { createProject, signedInUser } from "@/test/factories";

// POST /api/projects/<id>/review_refusals: an admin refuses a pending beta or launch review. The request is
// cleared and the refusal recorded as an admin action of its own (kind "refusal", with the reason); anyone
// else is refused and nothing changes.

const refuse = (projectId: number, body: unknown, token?: string) => api.post(`/projects/${projectId}/review_refusals`, body, { token });
const flags = async (id: number) => {
  const p = await db().project.findUniqueOrThrow({ where: { id } });
  return { beta_requested: p.betaRequested, beta: p.beta, launch_requested: p.launchRequested, launch_approved: p.launchApproved };
};

describe("review refusals", () => {
  it.each(["beta", "launch"] as const)("an admin refuses a pending %s review, with a reason the record keeps", async (review) => {
    const admin = await signedInUser({ admin: true });
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const field = `${review}_requested`;
    const asked = await api.put(
      `/projects/${project.id}`,
      { projects: { [field]: true } },
      { token: owner.token, headers: { "if-match": "*" } },
    );
    expect(asked.status).toBe(200);

    const res = await refuse(project.id, { review_refusals: { review, reason: "  Add a tutorial first.  " } }, admin.token);
    expect(res.status, res.text).toBe(201);
    expect(res.body.admin_actions[0]).toMatchObject({
      kind: "refusal",
      target_type: "project",
      target_id: String(project.id),
      changes: { [field]: { from: true, to: false } },
      reason: "Add a tutorial first.",
      links: { admin: String(admin.user.id) },
    });
    expect((await flags(project.id))[field as "beta_requested"]).toBe(false);
    const listed = await api.get(`/admin_actions?target_type=project&target_id=${project.id}&kind=refusal`, { token: admin.token });
    expect(listed.body.admin_actions).toHaveLength(1);

    // Nothing pending any more: a second refusal is a 422 and records nothing.
    expect((await refuse(project.id, { review_refusals: { review } }, admin.token)).status).toBe(422);
    expect(await db().adminAction.count({ where: { targetId: project.id, targetType: "project" } })).toBe(1);
  });

  it("refuses non-admins, bad bodies, approved reviews and unknown projects, changing nothing", async () => {
    const admin = await signedInUser({ admin: true });
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    await db().project.update({ where: { id: project.id }, data: { betaRequested: true, launchRequested: true, launchApproved: true } });
    const before = await flags(project.id);
    const cases: [string, number, unknown, string | undefined, number][] = [
      ["the owner", project.id, { review_refusals: { review: "beta" } }, owner.token, 403],
      ["another user", project.id, { review_refusals: { review: "beta" } }, (await signedInUser()).token, 403],
      ["nobody signed in", project.id, { review_refusals: { review: "beta" } }, undefined, 401],
      ["an unknown review", project.id, { review_refusals: { review: "gamma" } }, admin.token, 422],
      ["an unknown field", project.id, { review_refusals: { review: "beta", why: "x" } }, admin.token, 422],
      ["another top-level key", project.id, { refusals: { review: "beta" } }, admin.token, 422],
      ["a reason too long", project.id, { review_refusals: { review: "beta", reason: "x".repeat(2001) } }, admin.token, 422],
      // Refused by the database after the request was cleared: the transaction keeps nothing.
      ["a reason the database cannot store", project.id, { review_refusals: { review: "beta", reason: "a\u0000b" } }, admin.token, 422],
      ["an approved launch", project.id, { review_refusals: { review: "launch" } }, admin.token, 422],
      ["no such project", 2_000_000_000, { review_refusals: { review: "beta" } }, admin.token, 404],
    ];
    for (const [what, id, body, token, status] of cases) {
      const res = await refuse(id, body, token);
      expect(res.status, what).toBe(status);
      expect(res.body.errors?.[0]?.message, what).toEqual(expect.any(String));
    }
    expect(await flags(project.id)).toEqual(before);
    expect(await db().adminAction.count({ where: { targetId: project.id, targetType: "project" } })).toBe(0);
  });
});
