import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { signedInUser, uid } from "@/test/factories";
import { addMember, createGroup, etagOf, groupCast, join, membershipOf, type TestUser } from "@/test/factories-user-groups";
import { resourceContract } from "@/test/resource-contract";

// User groups and their memberships, in one file: active memberships of public groups are visible to
// everyone, so the memberships contract's "creates nothing" count must not run beside another file of
// ours creating public groups. Here: visibility for every position in a group, the join token, the
// membership states of the contract's table, invitations and removals, and that a group always keeps an
// active group_admin.

type Res = { status: number; body: any; text: string };
const ids = (list: { id: string }[]) => list.map((r) => Number(r.id)).sort((a, b) => a - b);

resourceContract({
  type: "user_groups",
  async setup() {
    const admin = await signedInUser();
    const member = await signedInUser();
    const group = await createGroup(admin);
    await addMember(group.id, member.user.id);
    // An active member sees the private group but may not edit it; anyone else does not see it.
    return { id: group.id, writer: admin.token, reader: member.token, stranger: (await signedInUser()).token };
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
  update: { display_name: "Renamed group", stats_visibility: "public_show_all" },
  invalidUpdate: { private: "yes" },
  async privateRecord() {
    const admin = await signedInUser();
    const group = await createGroup(admin, { private: true });
    return { id: group.id, insider: admin.token, stranger: (await signedInUser()).token };
  },
  destroy: true,
  strangerEditStatus: 404,
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
    const m = await addMember(group.id, member.user.id);
    await addMember(group.id, other.user.id);
    // Another member sees the membership (and its private group) but may not change it.
    return { id: m.id, writer: admin.token, reader: other.token, stranger: (await signedInUser()).token };
  },
  async seedMany(n) {
    const admin = await signedInUser();
    const group = await createGroup(admin);
    for (let i = 1; i < n; i++) await addMember(group.id, (await signedInUser()).user.id);
    return { query: `user_group_id=${group.id}`, token: admin.token };
  },
  async createRecord() {
    const admin = await signedInUser();
    const group = await createGroup(admin);
    const joiner = await signedInUser();
    return {
      record: { join_token: group.joinToken, links: { user: String(joiner.user.id), user_group: String(group.id) } },
      token: joiner.token,
    };
  },
  update: { roles: ["group_admin", "group_member"] },
  invalidUpdate: { state: "sleeping" },
  async privateRecord() {
    const admin = await signedInUser();
    const group = await createGroup(admin, { private: true });
    const member = await signedInUser();
    const m = await addMember(group.id, member.user.id);
    return { id: m.id, insider: member.token, stranger: (await signedInUser()).token };
  },
  strangerEditStatus: 404,
  includes: ["user", "user_group"],
  sortable: ["created_at", "updated_at"],
});

describe("user groups: create and edit", () => {
  it("makes the creator an active group_admin, invites links.users, and defaults private, display_name and stats_visibility", async () => {
    const creator = await signedInUser();
    const a = await signedInUser();
    const b = await signedInUser();
    const name = `Team_${uid()}`;
    const res = await api.post(
      "/user_groups",
      { user_groups: { name, links: { users: [String(a.user.id), b.user.id, String(creator.user.id)] } } },
      { token: creator.token },
    );
    expect(res.status).toBe(201);
    const g = res.body.user_groups[0];
    expect(g).toMatchObject({
      name,
      display_name: name,
      private: true,
      stats_visibility: "private_agg_only",
      classifications_count: 0,
      type: "user_groups",
      href: `/user_groups/${g.id}`,
    });
    expect(g.join_token).toMatch(/^[0-9a-f]{32}$/);
    expect(g.links.users).toEqual([String(creator.user.id)]);
    expect(g.links.memberships).toHaveLength(3);
    expect(res.body.links).toMatchObject({
      "user_groups.memberships": { href: "/memberships?user_group_id={user_groups.id}", type: "memberships" },
      "user_groups.users": { href: "/users?user_group_id={user_groups.id}", type: "users" },
      "user_groups.projects": { href: "/projects?owner={user_groups.name}", type: "projects" },
      "user_groups.collections": { href: "/collections?owner={user_groups.name}", type: "collections" },
    });
    const id = Number(g.id);
    expect(await membershipOf(id, creator.user.id)).toMatchObject({ state: "active", roles: ["group_admin"] });
    expect(await membershipOf(id, a.user.id)).toMatchObject({ state: "invited", roles: ["group_member"] });
    expect(await membershipOf(id, b.user.id)).toMatchObject({ state: "invited", roles: ["group_member"] });
    const explicit = await api.post(
      "/user_groups",
      { user_groups: { name: `x_${uid()}`, display_name: "Shown", private: false, stats_visibility: "public_show_all" } },
      { token: creator.token },
    );
    expect(explicit.body.user_groups[0]).toMatchObject({ display_name: "Shown", private: false, stats_visibility: "public_show_all" });
  });

  it("rejects bad creates with a clear 4xx and creates nothing (names are unique without regard to case)", async () => {
    const user = await signedInUser();
    const taken = await createGroup(user, { name: `Taken_${uid()}` });
    const name = `fresh_${uid()}`;
    const cases: [string, object, number, RegExp][] = [
      ["name taken in another case", { name: taken.name.toUpperCase() }, 400, /name '.*' has already been taken/],
      ["name with spaces", { name: "no spaces allowed" }, 422, /name must be 1-80 letters, digits, _ or -/],
      ["name too long", { name: "n".repeat(81) }, 422, /name must be/],
      ["no name", { display_name: "Nameless" }, 422, /name/],
      ["blank display_name", { name, display_name: "" }, 422, /display_name/],
      ["unknown stats_visibility", { name, stats_visibility: "everyone" }, 422, /stats_visibility must be one of private_agg_only/],
      ["private not a boolean", { name, private: "yes" }, 422, /private/],
      ["unknown user invited", { name, links: { users: ["99999999"] } }, 422, /links.users: no user with id 99999999/],
      ["malformed user id", { name, links: { users: ["abc"] } }, 422, /links.users must be a positive integer id/],
      ["join_token is not settable", { name, join_token: "mine" }, 422, /unknown key\(s\) 'join_token'/],
    ];
    for (const [what, record, status, message] of cases) {
      const res = await api.post("/user_groups", { user_groups: record }, { token: user.token });
      expect(res.status, what).toBe(status);
      expect(res.body.errors[0].message, what).toMatch(message);
    }
    expect(await db().userGroup.count({ where: { name: { in: [name, taken.name.toUpperCase()] } } })).toBe(0);
    expect(await db().membership.count({ where: { userId: user.user.id } })).toBe(1);
  });

  it("lets group admins and admins edit; members get 403, strangers 404, anonymous callers 401", async () => {
    const { group, users } = await groupCast({ private: true });
    const path = `/user_groups/${group.id}`;
    const other = await createGroup(users.stranger, { name: `Other_${uid()}` });
    const edit = async (token: string | undefined, record: object) =>
      api.put(path, { user_groups: record }, { token, headers: { "if-match": await etagOf(path, users.groupAdmin.token) } });
    const cases: [string, string | undefined, object, number, RegExp | null][] = [
      ["anonymous", undefined, { display_name: "x" }, 401, /signed in/],
      ["stranger", users.stranger.token, { display_name: "x" }, 404, /user_groups/],
      ["invitee", users.invitee.token, { display_name: "x" }, 404, /user_groups/],
      ["member", users.member.token, { display_name: "x" }, 403, /permission/],
      ["rename to a taken name", users.groupAdmin.token, { name: other.name.toLowerCase() }, 400, /has already been taken/],
      ["bad name", users.groupAdmin.token, { name: "a b" }, 422, /name must be/],
    ];
    for (const [who, token, record, status, message] of cases) {
      const res = await edit(token, record);
      expect(res.status, who).toBe(status);
      if (message) expect(res.body.errors[0].message, who).toMatch(message);
    }
    expect(await db().userGroup.findUniqueOrThrow({ where: { id: group.id } })).toMatchObject({
      name: group.name,
      displayName: group.displayName,
      updatedAt: group.updatedAt,
    });
    const renamed = await edit(users.groupAdmin.token, { name: group.name.toUpperCase(), private: false });
    expect(renamed.status).toBe(200);
    expect(renamed.body.user_groups[0]).toMatchObject({ name: group.name.toUpperCase(), private: false });
    const byAdmin = await edit(users.siteAdmin.token, { display_name: "Fixed by an admin" });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.user_groups[0].display_name).toBe("Fixed by an admin");
  });

  it("is destroyed by its group admins (memberships with it), never by members", async () => {
    const { group, users } = await groupCast({ private: false });
    const path = `/user_groups/${group.id}`;
    expect((await api.delete(path, { token: users.member.token, headers: { "if-match": await etagOf(path) } })).status).toBe(403);
    expect((await api.delete(path, { token: users.stranger.token, headers: { "if-match": await etagOf(path) } })).status).toBe(403);
    expect(await db().membership.count({ where: { userGroupId: group.id } })).toBe(4);
    expect((await api.delete(path, { token: users.groupAdmin.token, headers: { "if-match": await etagOf(path) } })).status).toBe(204);
    expect(await db().membership.count({ where: { userGroupId: group.id } })).toBe(0);
    expect((await api.get(path)).status).toBe(404);
  });
});

describe("user groups: visibility", () => {
  const positions = ["anonymous", "stranger", "invitee", "leaver", "member", "groupAdmin", "siteAdmin"] as const;
  // Who sees the group, and who sees its join token.
  const sees: Record<"public" | "private", Record<(typeof positions)[number], [boolean, boolean]>> = {
    public: {
      anonymous: [true, false],
      stranger: [true, false],
      invitee: [true, false],
      leaver: [true, false],
      member: [true, false],
      groupAdmin: [true, true],
      siteAdmin: [true, true],
    },
    private: {
      anonymous: [false, false],
      stranger: [false, false],
      invitee: [false, false],
      leaver: [false, false],
      member: [true, false],
      groupAdmin: [true, true],
      siteAdmin: [true, true],
    },
  };

  for (const vis of ["public", "private"] as const) {
    it(`shows a ${vis} group, in show, list and include, to exactly those who may see it; the join token to its admins`, async () => {
      const { group, memberships, users } = await groupCast({ private: vis === "private" });
      for (const who of positions) {
        const token = who === "anonymous" ? undefined : users[who].token;
        const [visible, seesToken] = sees[vis][who];
        const show = await api.get(`/user_groups/${group.id}`, { token });
        expect(show.status, who).toBe(visible ? 200 : 404);
        const list = await api.get(`/user_groups?id=${group.id}`, { token });
        expect(list.body.user_groups.length, who).toBe(visible ? 1 : 0);
        // A membership's include shows its group only to those who may see the group.
        const viaInclude = await api.get(`/memberships?user_group_id=${group.id}&include=user_group`, { token });
        expect(viaInclude.body.linked?.user_groups?.length ?? 0, who).toBe(visible && viaInclude.body.memberships.length ? 1 : 0);
        const text = show.text + list.text + viaInclude.text;
        expect(text.includes(group.joinToken), who).toBe(seesToken);
        if (visible) expect("join_token" in show.body.user_groups[0], who).toBe(seesToken);
      }
      // links.users are the active members; links.memberships only the memberships the caller may see.
      const bySiteAdmin = (await api.get(`/user_groups/${group.id}`, { token: users.siteAdmin.token })).body.user_groups[0];
      expect(bySiteAdmin.links.users.map(Number).sort((a: number, b: number) => a - b)).toEqual(
        [users.groupAdmin.user.id, users.member.user.id].sort((a, b) => a - b),
      );
      expect(bySiteAdmin.links.memberships).toHaveLength(4);
      if (vis === "public") {
        const byStranger = (await api.get(`/user_groups/${group.id}`, { token: users.stranger.token })).body.user_groups[0];
        expect(byStranger.links.memberships.map(Number).sort((a: number, b: number) => a - b)).toEqual(
          [memberships.groupAdmin.id, memberships.member.id].sort((a, b) => a - b),
        );
        const byInvitee = (await api.get(`/user_groups/${group.id}`, { token: users.invitee.token })).body.user_groups[0];
        expect(byInvitee.links.memberships.map(Number).sort((a: number, b: number) => a - b)).toEqual(
          [memberships.groupAdmin.id, memberships.member.id, memberships.invitee.id].sort((a, b) => a - b),
        );
      }
    });
  }

  it("includes memberships and users: only the memberships the caller may see, and the active members", async () => {
    const { group, memberships, users } = await groupCast({ private: false });
    const byStranger = await api.get(`/user_groups/${group.id}?include=memberships,users`, { token: users.stranger.token });
    expect(ids(byStranger.body.linked.memberships)).toEqual([memberships.groupAdmin.id, memberships.member.id].sort((a, b) => a - b));
    expect(ids(byStranger.body.linked.users)).toEqual([users.groupAdmin.user.id, users.member.user.id].sort((a, b) => a - b));
    const byMember = await api.get(`/user_groups/${group.id}?include=memberships`, { token: users.member.token });
    expect(byMember.body.linked.memberships).toHaveLength(4);
    // A user's include never carries other users' private fields.
    expect(byStranger.body.linked.users.every((u: { email?: string }) => u.email === undefined)).toBe(true);
  });
});

describe("user groups: filters and sort", () => {
  it("filters by name (any case), display_name, search (name or display name) and id; sorts by name", async () => {
    const admin = await signedInUser();
    const tag = uid();
    const alpha = await createGroup(admin, { name: `alpha_${tag}`, display_name: "Penguin counters" });
    const beta = await createGroup(admin, { name: `beta_${tag}`, display_name: `Zebra ${tag}` });
    const gamma = await createGroup(admin, { name: `gamma_${tag}` });
    const list = async (q: string) => ids((await api.get(`/user_groups?${q}`, { token: admin.token })).body.user_groups);
    const cases: [string, number[]][] = [
      [`name=ALPHA_${tag}`, [alpha.id]],
      [`display_name=${encodeURIComponent(`Zebra ${tag}`)}`, [beta.id]],
      [`search=${tag}`, [alpha.id, beta.id, gamma.id]],
      [`search=zebra%20${tag}`, [beta.id]],
      [`search=${tag}&display_name=${encodeURIComponent("Penguin counters")}`, [alpha.id]],
      [`id=${alpha.id},${gamma.id}`, [alpha.id, gamma.id]],
      [`name=nobody_${tag}`, []],
    ];
    for (const [q, expected] of cases) expect(await list(q), q).toEqual(expected.sort((a, b) => a - b));
    const sorted = (await api.get(`/user_groups?search=${tag}&sort=-name`, { token: admin.token })).body.user_groups.map(
      (g: { name: string }) => g.name,
    );
    expect(sorted).toEqual([`gamma_${tag}`, `beta_${tag}`, `alpha_${tag}`]);
    for (const q of ["id=abc", "sort=join_token", "include=projects"]) expect((await api.get(`/user_groups?${q}`)).status, q).toBe(422);
  });
});

describe("user groups: links/users", () => {
  it("lets group admins invite users: new and inactive ones become invited, invited and active ones stay", async () => {
    const { group, users } = await groupCast({ private: true });
    const newcomer = await signedInUser();
    const path = `/user_groups/${group.id}/links/users`;
    const before = await etagOf(`/user_groups/${group.id}`, users.groupAdmin.token);
    const res = await api.post(
      path,
      {
        users: [newcomer.user.id, users.leaver.user.id, users.invitee.user.id, users.member.user.id, users.groupAdmin.user.id].map(String),
      },
      { token: users.groupAdmin.token },
    );
    expect(res.status).toBe(200);
    expect(res.body.user_groups[0].id).toBe(String(group.id));
    expect(res.headers.get("etag")).not.toBe(before);
    const expected: [TestUser, string, string[]][] = [
      [newcomer, "invited", ["group_member"]],
      [users.leaver, "invited", ["group_member"]],
      [users.invitee, "invited", ["group_member"]],
      [users.member, "active", ["group_member"]],
      [users.groupAdmin, "active", ["group_admin"]],
    ];
    for (const [user, state, roles] of expected) expect(await membershipOf(group.id, user.user.id)).toMatchObject({ state, roles });
  });

  it("refuses invitations from others and bad bodies, changing nothing", async () => {
    const { group, users } = await groupCast({ private: true });
    const outsider = await signedInUser();
    const path = `/user_groups/${group.id}/links/users`;
    const body = { users: [String(outsider.user.id)] };
    const cases: [string, Promise<Res>, number, RegExp][] = [
      ["anonymous", api.post(path, body), 401, /signed in/],
      ["stranger (private group)", api.post(path, body, { token: users.stranger.token }), 404, /user_groups/],
      ["member", api.post(path, body, { token: users.member.token }), 403, /permission/],
      ["unknown user", api.post(path, { users: ["99999999"] }, { token: users.groupAdmin.token }), 422, /no user with id 99999999/],
      ["malformed id", api.post(path, { users: ["x"] }, { token: users.groupAdmin.token }), 422, /users must be a positive integer id/],
      [
        "wrong body key",
        api.post(path, { people: body.users }, { token: users.groupAdmin.token }),
        422,
        /Body must be \{"users": \[ids\]\}/,
      ],
      [
        "unknown link",
        api.post(`/user_groups/${group.id}/links/projects`, { projects: ["1"] }, { token: users.groupAdmin.token }),
        422,
        /writable: users/,
      ],
    ];
    for (const [what, send, status, message] of cases) {
      const res = await send;
      expect(res.status, what).toBe(status);
      expect(res.body.errors[0].message, what).toMatch(message);
    }
    expect(await db().membership.count({ where: { userGroupId: group.id, userId: outsider.user.id } })).toBe(0);
  });

  it("removes members (they become inactive, records stay): group admins anyone, a member only themself; the last admin stays", async () => {
    const { group, users } = await groupCast({ private: false });
    const other = await signedInUser();
    await addMember(group.id, other.user.id);
    const remove = (token: string | undefined, userIds: number[]) =>
      api.delete(`/user_groups/${group.id}/links/users/${userIds.join(",")}`, { token });
    const refused: [string, Promise<Res>, number, RegExp][] = [
      ["anonymous", remove(undefined, [users.member.user.id]), 401, /signed in/],
      ["member removing another", remove(users.member.token, [other.user.id]), 403, /Only the group's admins may remove other members/],
      [
        "member removing themself and another",
        remove(users.member.token, [users.member.user.id, other.user.id]),
        403,
        /Only the group's admins/,
      ],
      ["stranger", remove(users.stranger.token, [users.member.user.id]), 403, /Only the group's admins/],
      ["the last admin", remove(users.groupAdmin.token, [users.groupAdmin.user.id]), 422, /last active group_admin/],
      ["malformed ids", remove(users.groupAdmin.token, [0]), 422, /users must be a positive integer id/],
    ];
    for (const [what, send, status, message] of refused) {
      const res = await send;
      expect(res.status, what).toBe(status);
      expect(res.body.errors[0].message, what).toMatch(message);
    }
    for (const u of [users.member, other, users.groupAdmin]) expect((await membershipOf(group.id, u.user.id)).state).toBe("active");

    expect((await remove(users.member.token, [users.member.user.id])).status).toBe(204);
    expect((await membershipOf(group.id, users.member.user.id)).state).toBe("inactive");
    expect((await remove(users.groupAdmin.token, [other.user.id, users.invitee.user.id, users.stranger.user.id])).status).toBe(204);
    expect((await membershipOf(group.id, other.user.id)).state).toBe("inactive");
    expect((await membershipOf(group.id, users.invitee.user.id)).state).toBe("inactive");
    expect(await db().membership.count({ where: { userGroupId: group.id, userId: users.stranger.user.id } })).toBe(0);
    expect(await db().membership.count({ where: { userGroupId: group.id } })).toBe(5);
    const listed = await api.get(`/users?user_group_id=${group.id}`, { token: users.stranger.token });
    expect(ids(listed.body.users)).toEqual([users.groupAdmin.user.id]);
  });
});

describe("memberships: visibility", () => {
  const positions = ["anonymous", "stranger", "invitee", "leaver", "member", "groupAdmin", "siteAdmin"] as const;
  type Record_ = "groupAdmin" | "member" | "invitee" | "leaver";
  const all: Record_[] = ["groupAdmin", "member", "invitee", "leaver"];
  // Which of the group's memberships each position sees: its own; all of a group it is an active member
  // of; the active ones of a public group; admins all.
  const sees: Record<"public" | "private", Record<(typeof positions)[number], Record_[]>> = {
    public: {
      anonymous: ["groupAdmin", "member"],
      stranger: ["groupAdmin", "member"],
      invitee: ["groupAdmin", "member", "invitee"],
      leaver: ["groupAdmin", "member", "leaver"],
      member: all,
      groupAdmin: all,
      siteAdmin: all,
    },
    private: { anonymous: [], stranger: [], invitee: ["invitee"], leaver: ["leaver"], member: all, groupAdmin: all, siteAdmin: all },
  };

  for (const vis of ["public", "private"] as const) {
    it(`shows the memberships of a ${vis} group, in show, list and include, to exactly those who may see them`, async () => {
      const { group, memberships, users } = await groupCast({ private: vis === "private" });
      for (const who of positions) {
        const token = who === "anonymous" ? undefined : users[who].token;
        const expected = sees[vis][who].map((r) => memberships[r].id).sort((a, b) => a - b);
        for (const r of all)
          expect((await api.get(`/memberships/${memberships[r].id}`, { token })).status, `${who} → ${r}`).toBe(
            expected.includes(memberships[r].id) ? 200 : 404,
          );
        expect(ids((await api.get(`/memberships?user_group_id=${group.id}`, { token })).body.memberships), who).toEqual(expected);
        const viaGroup = await api.get(`/user_groups/${group.id}?include=memberships`, { token });
        if (viaGroup.status === 200) expect(ids(viaGroup.body.linked.memberships), who).toEqual(expected);
      }
    });
  }

  it("filters by user_id, user_group_id and state; rejects malformed filters", async () => {
    const { group, memberships, users } = await groupCast({ private: true });
    const other = await createGroup(users.member);
    const token = users.siteAdmin.token;
    const list = async (q: string) => ids((await api.get(`/memberships?${q}`, { token })).body.memberships);
    const cases: [string, number[]][] = [
      [`user_group_id=${group.id}&state=invited`, [memberships.invitee.id]],
      [`user_group_id=${group.id}&state=active`, [memberships.groupAdmin.id, memberships.member.id]],
      [
        `user_group_id=${group.id},${other.id}&user_id=${users.member.user.id}`,
        [memberships.member.id, (await membershipOf(other.id, users.member.user.id)).id],
      ],
      [`user_id=${users.leaver.user.id}`, [memberships.leaver.id]],
    ];
    for (const [q, expected] of cases) expect(await list(q), q).toEqual(expected.sort((a, b) => a - b));
    for (const q of ["state=banned", "user_id=abc", "user_group_id=1,x", "sort=state", "include=roles"]) {
      const res = await api.get(`/memberships?${q}`, { token });
      expect(res.status, q).toBe(422);
      expect(res.body.errors[0].message.length, q).toBeGreaterThan(0);
    }
  });
});

describe("memberships: joining with the join token", () => {
  it("joins only oneself, only with the group's token; refusals create nothing", async () => {
    const admin = await signedInUser();
    const privateGroup = await createGroup(admin, { private: true });
    const publicGroup = await createGroup(admin, { private: false });
    const joiner = await signedInUser();
    const someone = await signedInUser();
    const body = (token: unknown, user = joiner.user.id, group = privateGroup.id) => ({
      memberships: { join_token: token, links: { user: String(user), user_group: String(group) } },
    });
    const cases: [string, Promise<Res>, number, RegExp][] = [
      ["wrong token, public group", join(joiner, publicGroup.id, "nope"), 403, /^Invalid join token$/],
      [
        "wrong token, private group (as invisible as a missing one)",
        join(joiner, privateGroup.id, "nope"),
        404,
        /Could not find user_groups/,
      ],
      ["another group's token", join(joiner, publicGroup.id, privateGroup.joinToken), 403, /Invalid join token/],
      [
        "no token",
        api.post(
          "/memberships",
          { memberships: { links: { user: String(joiner.user.id), user_group: String(privateGroup.id) } } },
          { token: joiner.token },
        ),
        422,
        /join_token is required/,
      ],
      ["empty token", api.post("/memberships", body(""), { token: joiner.token }), 422, /join_token is required/],
      [
        "for someone else",
        api.post("/memberships", body(privateGroup.joinToken, someone.user.id), { token: joiner.token }),
        403,
        /only be created for yourself/,
      ],
      ["anonymous", api.post("/memberships", body(privateGroup.joinToken)), 401, /signed in/],
      ["missing group", join(joiner, 99999999, privateGroup.joinToken), 404, /user_groups/],
      [
        "malformed group id",
        api.post("/memberships", body(privateGroup.joinToken, joiner.user.id, "x" as never), { token: joiner.token }),
        422,
        /links.user_group/,
      ],
      [
        "state is not settable",
        api.post(
          "/memberships",
          { memberships: { ...body(privateGroup.joinToken).memberships, state: "active" } },
          { token: joiner.token },
        ),
        422,
        /unknown key\(s\) 'state'/,
      ],
    ];
    for (const [what, send, status, message] of cases) {
      const res = await send;
      expect(res.status, what).toBe(status);
      expect(res.body.errors[0].message, what).toMatch(message);
    }
    expect(await db().membership.count({ where: { userId: { in: [joiner.user.id, someone.user.id] } } })).toBe(0);
    const joined = await join(joiner, privateGroup.id, privateGroup.joinToken);
    expect(joined.status).toBe(201);
    expect(joined.body.memberships[0]).toMatchObject({
      state: "active",
      roles: ["group_member"],
      links: { user: String(joiner.user.id), user_group: String(privateGroup.id) },
    });
    expect(joined.body.memberships[0].join_token).toBeUndefined();
    expect(joined.text).not.toContain(privateGroup.joinToken);
    expect((await api.get(`/user_groups/${privateGroup.id}`, { token: joiner.token })).status).toBe(200);
  });

  it("makes an invited or inactive membership active and keeps an active one (and its roles) as it is", async () => {
    const { group, memberships, users } = await groupCast({ private: true });
    for (const who of ["invitee", "leaver", "member", "groupAdmin"] as const) {
      const res = await join(users[who], group.id, group.joinToken);
      expect(res.status, who).toBe(201);
      expect(res.body.memberships[0].id, who).toBe(String(memberships[who].id));
      expect(await membershipOf(group.id, users[who].user.id), who).toMatchObject({ state: "active", roles: memberships[who].roles });
    }
  });
});

describe("memberships: states and roles", () => {
  type Who = "member" | "groupAdmin" | "other" | "siteAdmin";
  // [from state, who edits, body, status, message]: the contract's states table and the roles rules.
  const cases: [string, "invited" | "active" | "inactive", Who, object, number, RegExp | null, object][] = [
    ["the invitee accepts", "invited", "member", { state: "active" }, 200, null, { state: "active" }],
    ["the invitee declines", "invited", "member", { state: "inactive" }, 200, null, { state: "inactive" }],
    ["an admin withdraws an invitation", "invited", "groupAdmin", { state: "inactive" }, 200, null, { state: "inactive" }],
    [
      "an admin cannot accept for the invitee",
      "invited",
      "groupAdmin",
      { state: "active" },
      403,
      /Only the member themself may move a membership from invited to active/,
      {},
    ],
    ["the member leaves", "active", "member", { state: "inactive" }, 200, null, { state: "inactive" }],
    ["an admin removes a member", "active", "groupAdmin", { state: "inactive" }, 200, null, { state: "inactive" }],
    ["a site admin removes a member", "active", "siteAdmin", { state: "inactive" }, 200, null, { state: "inactive" }],
    ["another member cannot remove them", "active", "other", { state: "inactive" }, 403, /permission/, {}],
    ["no way back to invited", "active", "groupAdmin", { state: "invited" }, 422, /cannot move from active to invited/, {}],
    [
      "a leaver cannot come back without the token",
      "inactive",
      "member",
      { state: "active" },
      422,
      /join again with the group's join token/,
      {},
    ],
    ["nor can an admin bring them back", "inactive", "groupAdmin", { state: "active" }, 422, /cannot move from inactive to active/, {}],
    ["an admin invites a leaver again", "inactive", "groupAdmin", { state: "invited" }, 200, null, { state: "invited" }],
    [
      "a leaver cannot invite themself",
      "inactive",
      "member",
      { state: "invited" },
      403,
      /Only the group's admins may move a membership from inactive to invited/,
      {},
    ],
    ["sending the current state is no move", "active", "member", { state: "active" }, 200, null, { state: "active" }],
    [
      "a member cannot make themself group_admin",
      "active",
      "member",
      { roles: ["group_admin"] },
      403,
      /Only the group's admins may change roles/,
      {},
    ],
    [
      "a member may send their roles unchanged",
      "active",
      "member",
      { roles: ["group_member"], state: "inactive" },
      200,
      null,
      { state: "inactive" },
    ],
    [
      "an admin promotes a member",
      "active",
      "groupAdmin",
      { roles: ["group_member", "group_admin"] },
      200,
      null,
      { roles: ["group_member", "group_admin"] },
    ],
    ["no empty roles", "active", "groupAdmin", { roles: [] }, 422, /roles must name at least one role/, {}],
    ["no unknown roles", "active", "groupAdmin", { roles: ["owner"] }, 422, /roles must be among group_admin, group_member/, {}],
    ["no unknown state", "active", "groupAdmin", { state: "banned" }, 422, /state must be one of invited, active, inactive/, {}],
    ["no other attributes", "active", "groupAdmin", { join_token: "x" }, 422, /unknown key\(s\) 'join_token'/, {}],
  ];

  it.each(cases)("%s", async (_name, from, who, body, status, message, after) => {
    const { group, users } = await groupCast({ private: true });
    const member = await signedInUser();
    const other = await signedInUser();
    const m = await addMember(group.id, member.user.id, from);
    await addMember(group.id, other.user.id, "active");
    const actors: Record<Who, TestUser> = { member, groupAdmin: users.groupAdmin, other, siteAdmin: users.siteAdmin };
    const path = `/memberships/${m.id}`;
    const res = await api.put(
      path,
      { memberships: body },
      { token: actors[who].token, headers: { "if-match": await etagOf(path, actors[who].token) } },
    );
    expect(res.status).toBe(status);
    const stored = await db().membership.findUniqueOrThrow({ where: { id: m.id } });
    if (message) {
      expect(res.body.errors[0].message).toMatch(message);
      expect(stored).toEqual(m);
    } else {
      expect(res.body.memberships[0]).toMatchObject(after);
      expect(stored).toMatchObject(after);
    }
  });

  it("never leaves a group without an active group_admin (edit, DELETE, links); with two, one may go", async () => {
    const { group, memberships, users } = await groupCast({ private: true });
    const path = `/memberships/${memberships.groupAdmin.id}`;
    const put = async (body: object) =>
      api.put(
        path,
        { memberships: body },
        { token: users.groupAdmin.token, headers: { "if-match": await etagOf(path, users.groupAdmin.token) } },
      );
    const attempts: [string, () => Promise<Res>][] = [
      ["leave", () => put({ state: "inactive" })],
      ["give up the role", () => put({ roles: ["group_member"] })],
      [
        "DELETE",
        async () =>
          api.delete(path, { token: users.groupAdmin.token, headers: { "if-match": await etagOf(path, users.groupAdmin.token) } }),
      ],
      [
        "links/users",
        () => api.delete(`/user_groups/${group.id}/links/users/${users.groupAdmin.user.id}`, { token: users.groupAdmin.token }),
      ],
      [
        "a site admin removing them",
        async () =>
          api.put(
            path,
            { memberships: { state: "inactive" } },
            { token: users.siteAdmin.token, headers: { "if-match": await etagOf(path, users.siteAdmin.token) } },
          ),
      ],
    ];
    for (const [what, send] of attempts) {
      const res = await send();
      expect(res.status, what).toBe(422);
      expect(res.body.errors[0].message, what).toMatch(/last active group_admin cannot leave or give up the role/);
    }
    expect(await db().membership.findUniqueOrThrow({ where: { id: memberships.groupAdmin.id } })).toEqual(memberships.groupAdmin);
    // A second admin: now the first may go.
    const memberPath = `/memberships/${memberships.member.id}`;
    expect(
      (
        await api.put(
          memberPath,
          { memberships: { roles: ["group_admin"] } },
          { token: users.groupAdmin.token, headers: { "if-match": await etagOf(memberPath, users.groupAdmin.token) } },
        )
      ).status,
    ).toBe(200);
    expect((await put({ state: "inactive" })).status).toBe(200);
  });

  it("lets only one of two admins leaving at the same moment go", async () => {
    const { group, memberships, users } = await groupCast({ private: true });
    await db().membership.update({ where: { id: memberships.member.id }, data: { roles: ["group_admin"] } });
    const leave = async (user: TestUser, id: number) => {
      const path = `/memberships/${id}`;
      return api.delete(path, { token: user.token, headers: { "if-match": await etagOf(path, user.token) } });
    };
    const results = await Promise.all([leave(users.groupAdmin, memberships.groupAdmin.id), leave(users.member, memberships.member.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([204, 422]);
    expect(await db().membership.count({ where: { userGroupId: group.id, state: "active", roles: { has: "group_admin" } } })).toBe(1);
  });

  it("DELETE makes a membership inactive and keeps it: for the member and the group's admins only", async () => {
    const { memberships, users } = await groupCast({ private: false });
    const other = await signedInUser();
    const del = async (token: string | undefined, id: number) =>
      api.delete(`/memberships/${id}`, { token, headers: { "if-match": await etagOf(`/memberships/${id}`, users.siteAdmin.token) } });
    const refused: [string, string | undefined, number, number][] = [
      ["anonymous", undefined, memberships.member.id, 401],
      ["a stranger", other.token, memberships.member.id, 403],
      ["an invitee, on another's membership", users.invitee.token, memberships.member.id, 403],
      ["an already inactive one", users.leaver.token, memberships.leaver.id, 422],
      ["no If-Match", users.member.token, memberships.member.id, 428],
    ];
    for (const [what, token, id, status] of refused) {
      const res = what === "no If-Match" ? await api.delete(`/memberships/${id}`, { token }) : await del(token, id);
      expect(res.status, what).toBe(status);
      expect(res.body.errors[0].message.length, what).toBeGreaterThan(0);
    }
    expect((await db().membership.findUniqueOrThrow({ where: { id: memberships.member.id } })).state).toBe("active");
    expect((await del(users.member.token, memberships.member.id)).status).toBe(204);
    expect((await del(users.groupAdmin.token, memberships.invitee.id)).status).toBe(204);
    for (const id of [memberships.member.id, memberships.invitee.id])
      expect((await db().membership.findUniqueOrThrow({ where: { id } })).state).toBe("inactive");
    // The record stays, visible to its own user.
    expect((await api.get(`/memberships/${memberships.member.id}`, { token: users.member.token })).body.memberships[0].state).toBe(
      "inactive",
    );
  });
});
