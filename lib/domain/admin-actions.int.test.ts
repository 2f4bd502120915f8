import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { createProject, signedInUser } from "@/test/factories";

// The admins' record: each change an admin makes to what only admins may change is written with who and
// when, in the change's own transaction; nothing else is; admins alone read it.

const put = (path: string, body: unknown, token: string) => api.put(path, body, { token, headers: { "if-match": "*" } });

describe("admin actions", () => {
  it("records an admin's approvals, featuring, bans, limits and admin grants, field by field, and nothing else", async () => {
    const admin = await signedInUser({ admin: true });
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    // The owner asks: not an admin's action, not recorded.
    expect((await put(`/projects/${project.id}`, { projects: { launch_requested: true } }, owner.token)).status).toBe(200);
    expect(await db().adminAction.count({ where: { targetType: "project", targetId: project.id } })).toBe(0);
    // The admin approves the launch and features the project (and edits nothing else of record).
    const approved = await put(
      `/projects/${project.id}`,
      { projects: { launch_approved: true, featured: true, launch_requested: true, description: "x" } },
      admin.token,
    );
    expect(approved.status).toBe(200);
    const volunteer = await signedInUser();
    for (const change of [{ subject_limit: 50_000 }, { banned: true }, { banned: false }, { admin: true }, { admin: false }])
      expect((await put(`/users/${volunteer.user.id}`, { users: change }, admin.token)).status, JSON.stringify(change)).toBe(200);

    const list = await api.get(`/admin_actions?admin_id=${admin.user.id}`, { token: admin.token });
    expect(list.status).toBe(200);
    expect(
      list.body.admin_actions.map((a: { target_type: string; target_id: string; changes: unknown; links: { admin: string } }) => [
        a.target_type,
        Number(a.target_id),
        a.changes,
        Number(a.links.admin),
      ]),
    ).toEqual([
      ["user", volunteer.user.id, { admin: { from: true, to: false } }, admin.user.id],
      ["user", volunteer.user.id, { admin: { from: false, to: true } }, admin.user.id],
      ["user", volunteer.user.id, { banned: { from: true, to: false } }, admin.user.id],
      ["user", volunteer.user.id, { banned: { from: false, to: true } }, admin.user.id],
      ["user", volunteer.user.id, { subject_limit: { from: null, to: 50_000 } }, admin.user.id],
      ["project", project.id, { launch_approved: { from: false, to: true }, featured: { from: false, to: true } }, admin.user.id],
    ]);
    const one = await api.get(`/admin_actions/${list.body.admin_actions[0].id}`, { token: admin.token });
    expect(one.status).toBe(200);
    // Filters by target.
    const ofProject = await api.get(`/admin_actions?target_type=project&target_id=${project.id}`, { token: admin.token });
    expect(ofProject.body.admin_actions).toHaveLength(1);

    // Nobody else reads it: an empty list, and each record a 404. (The volunteer's tokens ended with the ban.)
    expect((await api.get("/admin_actions", { token: volunteer.token })).status).toBe(401);
    for (const token of [owner.token, (await signedInUser()).token, undefined]) {
      const others = await api.get(`/admin_actions?admin_id=${admin.user.id}`, { token });
      expect(others.status).toBe(200);
      expect(others.body.admin_actions).toEqual([]);
      expect((await api.get(`/admin_actions/${list.body.admin_actions[0].id}`, { token })).status).toBe(404);
    }
  });

  it("only an admin grants admin, and no admin revokes their own admin or bans themself", async () => {
    const admin = await signedInUser({ admin: true });
    const user = await signedInUser();
    const refused = await put(`/users/${user.user.id}`, { users: { admin: true } }, user.token);
    expect(refused.status).toBe(403);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.user.id } })).admin).toBe(false);
    for (const change of [{ admin: false }, { banned: true }]) {
      const self = await put(`/users/${admin.user.id}`, { users: change }, admin.token);
      expect(self.status).toBe(422);
    }
    const me = await db().user.findUniqueOrThrow({ where: { id: admin.user.id } });
    expect([me.admin, me.banned]).toEqual([true, false]);
    expect(await db().adminAction.count({ where: { adminId: admin.user.id } })).toBe(0);
  });
});
