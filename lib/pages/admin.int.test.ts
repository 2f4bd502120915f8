import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { createProject, signedInUser } from "@/test/factories";
import type { Actor } from "@/lib/auth/actor";
import { ANONYMOUS } from "@/lib/auth/actor";
import { loadAdminConsole } from "./admin";

// The admin console's loader: nothing for anyone but an admin; for an admin the review queue, the launched
// projects, the figures and the recorded actions, newest first, paged.

const actorOf = (u: { id: number; login: string; displayName: string; admin: boolean }): Actor => ({
  user: { id: u.id, login: u.login, displayName: u.displayName, admin: u.admin },
  scopes: null,
});

describe("loadAdminConsole", () => {
  it("is null for anyone but an admin", async () => {
    const user = await signedInUser();
    expect(await loadAdminConsole(ANONYMOUS, 1)).toBeNull();
    expect(await loadAdminConsole(actorOf(user.user), 1)).toBeNull();
  });

  it("lists pending reviews, launched projects, figures and the actions with who and what", async () => {
    const admin = await signedInUser({ admin: true });
    const owner = await signedInUser();
    const [beta, launch, done] = [
      await createProject(owner.user.id),
      await createProject(owner.user.id),
      await createProject(owner.user.id),
    ];
    await db().project.update({ where: { id: beta.id }, data: { betaRequested: true } });
    await db().project.update({ where: { id: launch.id }, data: { beta: true, launchRequested: true } });
    await db().project.update({ where: { id: done.id }, data: { launchRequested: true } });
    const res = await api.put(
      `/projects/${done.id}`,
      { projects: { launch_approved: true } },
      { token: admin.token, headers: { "if-match": "*" } },
    );
    expect(res.status).toBe(200);

    const view = (await loadAdminConsole(actorOf(admin.user), 1))!;
    const mine = view.queue.filter((q) => [beta.id, launch.id, done.id].includes(q.id)).map((q) => [q.review, q.id, q.owner]);
    expect(mine).toEqual([
      ["launch", launch.id, owner.user.login],
      ["beta", beta.id, owner.user.login],
    ]);
    expect(view.queue.find((q) => q.id === beta.id)?.checklist.map((c) => c.done)).toEqual([false, false, false, false]);
    expect(view.launched.map((p) => p.id)).toContain(done.id);
    expect(view.figures.users).toBeGreaterThanOrEqual(2);
    expect(view.figures.projects).toBeGreaterThanOrEqual(3);
    expect(view.figures).toMatchObject({ inboxDepth: expect.any(Number), classificationsToday: expect.any(Number) });
    expect(view.actions.rows[0]).toMatchObject({
      kind: "change",
      admin: admin.user.login,
      targetType: "project",
      targetId: done.id,
      target: done.displayName,
      changes: { launch_approved: { from: false, to: true } },
    });
    // Page 2 starts where page 1 ends, newest first.
    const page2 = (await loadAdminConsole(actorOf(admin.user), 2))!.actions;
    if (page2.rows.length) expect(page2.rows[0].id).toBeLessThan(view.actions.rows.at(-1)!.id);
  });
});
