import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { signedInUser, uid } from "@/test/factories";
import { resourceContract } from "@/test/resource-contract";

// User groups and memberships: visibility, the join token, the membership states of the contract's table,
// invitations, and that a group always keeps an active group_admin.

type Member = Awaited<ReturnType<typeof signedInUser>>;

async function createGroup(admin: Member, data: { private?: boolean; name?: string; stats_visibility?: string } = {}) {
  const res = await api.post("/user_groups", { user_groups: { name: data.name ?? `group_${uid()}`, private: data.private ?? false, ...(data.stats_visibility ? { stats_visibility: data.stats_visibility } : {}) } }, { token: admin.token });
  expect(res.status).toBe(201);
  const id = Number(res.body.user_groups[0].id);
  const group = await db().userGroup.findUniqueOrThrow({ where: { id } });
  return group;
}

async function join(user: Member, groupId: number, joinToken: string) {
  return api.post("/memberships", { memberships: { join_token: joinToken, links: { user: String(user.user.id), user_group: String(groupId) } } }, { token: user.token });
}

async function membershipOf(groupId: number, userId: number) {
  return db().membership.findUniqueOrThrow({ where: { userGroupId_userId: { userGroupId: groupId, userId } } });
}

const etag = async (path: string, token: string) => (await api.get(path, { token })).headers.get("etag") ?? undefined;

resourceContract({
  type: "user_groups",
  async setup() {
    const admin = await signedInUser();
    const group = await createGroup(admin);
    return { id: group.id, writer: admin.token, reader: (await signedInUser()).token, stranger: (await signedInUser()).token };
  },
  async seedMany(n) {
    const admin = await signedInUser();
    const prefix = `seed${uid()}`;
    for (let i = 0; i < n; i++) await createGroup(admin, { name: `${prefix}_${i}` });
    return { query: `search=${prefix}`, token: admin.token };
  },
  async createRecord() {
    return { record: { name: `new_${uid()}`, display_name: "A new group" }, token: (await signedInUser()).token };
  },
  update: { display_name: "Renamed group" },
  invalidUpdate: { private: "yes" },
  async privateRecord() {
    const admin = await signedInUser();
    const group = await createGroup(admin, { private: true });
    return { id: group.id, insider: admin.token, stranger: (await signedInUser()).token };
  },
  destroy: true,
  includes: ["memberships", "users"],
  sortable: ["name", "display_name", "created_at"],
});

resourceContract({
  type: "memberships",
  async setup() {
    const admin = await signedInUser();
    const group = await createGroup(admin);
    const member = await signedInUser();
    const other = await signedInUser();
    expect((await join(member, group.id, group.joinToken)).status).toBe(201);
    expect((await join(other, group.id, group.joinToken)).status).toBe(201);
    const m = await membershipOf(group.id, member.user.id);
    // The other member sees the membership but may not change it; a stranger sees it too (a public group's).
    return { id: m.id, writer: admin.token, reader: other.token, stranger: (await signedInUser()).token };
  },
  async seedMany(n) {
    const admin = await signedInUser();
    const group = await createGroup(admin);
    for (let i = 1; i < n; i++) await join(await signedInUser(), group.id, group.joinToken);
    return { query: `user_group_id=${group.id}`, token: admin.token };
  },
  async createRecord() {
    const admin = await signedInUser();
    const group = await createGroup(admin);
    const joiner = await signedInUser();
    return { record: { join_token: group.joinToken, links: { user: String(joiner.user.id), user_group: String(group.id) } }, token: joiner.token };
  },
  update: { roles: ["group_admin"] },
  invalidUpdate: { state: "sleeping" },
  async privateRecord() {
    const admin = await signedInUser();
    const group = await createGroup(admin, { private: true });
    const member = await signedInUser();
    await join(member, group.id, group.joinToken);
    return { id: (await membershipOf(group.id, member.user.id)).id, insider: member.token, stranger: (await signedInUser()).token };
  },
  includes: [],
  sortable: ["created_at"],
});

describe("user groups", () => {
  it("makes the creator an active group_admin who alone sees the join token; names are unique without regard to case", async () => {
    const admin = await signedInUser();
    const name = `Team_${uid()}`;
    const group = await createGroup(admin, { name });
    expect(await membershipOf(group.id, admin.user.id)).toMatchObject({ state: "active", roles: ["group_admin"] });
    const own = await api.get(`/user_groups/${group.id}`, { token: admin.token });
    expect(own.body.user_groups[0]).toMatchObject({ name, join_token: group.joinToken, private: false, stats_visibility: "private_agg_only", links: { users: [String(admin.user.id)] } });
    const other = await signedInUser();
    const seen = await api.get(`/user_groups/${group.id}`, { token: other.token });
    expect(seen.body.user_groups[0].join_token).toBeUndefined();
    expect(seen.text).not.toContain(group.joinToken);
    const clash = await api.post("/user_groups", { user_groups: { name: name.toUpperCase() } }, { token: other.token });
    expect(clash.status).toBe(400);
    expect(clash.body.errors[0].message).toContain("has already been taken");
    const bad = await api.post("/user_groups", { user_groups: { name: "no spaces allowed" } }, { token: other.token });
    expect(bad.status).toBe(422);
    expect(await db().userGroup.count({ where: { name: { equals: name, mode: "insensitive" } } })).toBe(1);
  });

  it("hides a private group from all but its active members; invited ones accept, then see it", async () => {
    const admin = await signedInUser();
    const invitee = await signedInUser();
    const group = await createGroup(admin, { private: true });
    expect((await api.get(`/user_groups/${group.id}`, { token: invitee.token })).status).toBe(404);
    expect((await api.get(`/user_groups?search=${group.name}`)).body.user_groups).toEqual([]);
    // Invited through links/users: the invitee sees their own invitation, not yet the group.
    expect((await api.post(`/user_groups/${group.id}/links/users`, { users: [String(invitee.user.id)] }, { token: admin.token })).status).toBe(200);
    const invitation = await membershipOf(group.id, invitee.user.id);
    expect(invitation.state).toBe("invited");
    expect((await api.get(`/memberships/${invitation.id}`, { token: invitee.token })).status).toBe(200);
    expect((await api.get(`/user_groups/${group.id}`, { token: invitee.token })).status).toBe(404);
    // Accepting: invited → active.
    const accepted = await api.put(`/memberships/${invitation.id}`, { memberships: { state: "active" } }, { token: invitee.token, headers: { "if-match": await etag(`/memberships/${invitation.id}`, invitee.token) } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.memberships[0].state).toBe("active");
    expect((await api.get(`/user_groups/${group.id}`, { token: invitee.token })).status).toBe(200);
    // Members (not admins) see all the group's memberships, but not the token.
    const list = await api.get(`/memberships?user_group_id=${group.id}`, { token: invitee.token });
    expect(list.body.memberships).toHaveLength(2);
    expect((await api.get(`/user_groups/${group.id}`, { token: invitee.token })).body.user_groups[0].join_token).toBeUndefined();
  });

  it("joins with the join token only, for oneself; a wrong token creates nothing", async () => {
    const admin = await signedInUser();
    const group = await createGroup(admin, { private: true });
    const joiner = await signedInUser();
    const someone = await signedInUser();
    const cases: [string, Promise<{ status: number; body: any }>, number, RegExp][] = [
      ["wrong token", join(joiner, group.id, "nope"), 403, /Invalid join token/],
      ["no token", api.post("/memberships", { memberships: { links: { user: String(joiner.user.id), user_group: String(group.id) } } }, { token: joiner.token }), 422, /join_token is required/],
      ["for someone else", api.post("/memberships", { memberships: { join_token: group.joinToken, links: { user: String(someone.user.id), user_group: String(group.id) } } }, { token: joiner.token }), 403, /only be created for yourself/],
      ["anonymous", api.post("/memberships", { memberships: { join_token: group.joinToken, links: { user: String(joiner.user.id), user_group: String(group.id) } } }), 401, /signed in/],
      ["missing group", join(joiner, 99999999, group.joinToken), 404, /user_groups/],
    ];
    for (const [name, send, status, message] of cases) {
      const res = await send;
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toMatch(message);
    }
    expect(await db().membership.count({ where: { userGroupId: group.id } })).toBe(1);
    const joined = await join(joiner, group.id, group.joinToken);
    expect(joined.status).toBe(201);
    expect(joined.body.memberships[0]).toMatchObject({ state: "active", roles: ["group_member"] });
    expect(joined.text).not.toContain(group.joinToken);
  });

  it("moves memberships through the contract's states: who may do what", async () => {
    const admin = await signedInUser();
    const group = await createGroup(admin);
    const member = await signedInUser();
    const other = await signedInUser();
    await join(member, group.id, group.joinToken);
    await join(other, group.id, group.joinToken);
    const m = await membershipOf(group.id, member.user.id);
    const path = `/memberships/${m.id}`;
    const put = async (token: string, body: object) => api.put(path, { memberships: body }, { token, headers: { "if-match": await etag(path, token) } });

    const refused: [string, () => Promise<{ status: number; body: any }>, number, RegExp][] = [
      ["another member changing it", () => put(other.token, { state: "inactive" }), 403, /permission/],
      ["a member making themself admin", () => put(member.token, { roles: ["group_admin"] }), 403, /Only the group's admins may change roles/],
      ["an unknown state", () => put(member.token, { state: "banned" }), 422, /state must be one of invited, active, inactive/],
    ];
    for (const [name, send, status, message] of refused) {
      const res = await send();
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toMatch(message);
    }
    expect(await membershipOf(group.id, member.user.id)).toMatchObject({ state: "active", roles: ["group_member"] });

    // Leaving (DELETE): inactive, the record stays; back only with the join token.
    expect((await api.delete(path, { token: member.token, headers: { "if-match": await etag(path, member.token) } })).status).toBe(204);
    expect((await membershipOf(group.id, member.user.id)).state).toBe("inactive");
    const back = await put(member.token, { state: "active" });
    expect(back.status).toBe(422);
    expect(back.body.errors[0].message).toMatch(/join again with the group's join token/);
    expect((await join(member, group.id, group.joinToken)).status).toBe(201);
    expect((await membershipOf(group.id, member.user.id)).state).toBe("active");

    // Admins change roles; the last active admin cannot leave or give up the role.
    expect((await put(admin.token, { roles: ["group_admin"] })).status).toBe(200);
    const adminMembership = await membershipOf(group.id, admin.user.id);
    const adminPath = `/memberships/${adminMembership.id}`;
    expect((await api.delete(adminPath, { token: admin.token, headers: { "if-match": await etag(adminPath, admin.token) } })).status).toBe(204);
    const last = await membershipOf(group.id, member.user.id);
    const lastPath = `/memberships/${last.id}`;
    const orphan = await api.delete(lastPath, { token: member.token, headers: { "if-match": await etag(lastPath, member.token) } });
    expect(orphan.status).toBe(422);
    expect(orphan.body.errors[0].message).toMatch(/last active group_admin/);
    expect((await membershipOf(group.id, member.user.id)).state).toBe("active");
  });

  it("admins invite and remove members through links/users; others may not", async () => {
    const admin = await signedInUser();
    const group = await createGroup(admin);
    const member = await signedInUser();
    const stranger = await signedInUser();
    await join(member, group.id, group.joinToken);
    expect((await api.post(`/user_groups/${group.id}/links/users`, { users: [String(stranger.user.id)] }, { token: member.token })).status).toBe(403);
    expect((await api.post(`/user_groups/${group.id}/links/users`, { users: ["99999999"] }, { token: admin.token })).status).toBe(422);
    expect(await db().membership.count({ where: { userGroupId: group.id } })).toBe(2);
    expect((await api.delete(`/user_groups/${group.id}/links/users/${member.user.id}`, { token: admin.token })).status).toBe(204);
    expect((await membershipOf(group.id, member.user.id)).state).toBe("inactive");
    const orphan = await api.delete(`/user_groups/${group.id}/links/users/${admin.user.id}`, { token: admin.token });
    expect(orphan.status).toBe(422);
    // Re-inviting an inactive member invites them again; an active one stays active.
    await api.post(`/user_groups/${group.id}/links/users`, { users: [String(member.user.id), String(admin.user.id)] }, { token: admin.token });
    expect((await membershipOf(group.id, member.user.id)).state).toBe("invited");
    expect((await membershipOf(group.id, admin.user.id)).state).toBe("active");
    // The group's users link lists active members.
    const users = await api.get(`/users?user_group_id=${group.id}`, { token: admin.token });
    expect(users.body.users.map((u: { id: string }) => Number(u.id))).toEqual([admin.user.id]);
  });
});
