import { expect } from "vitest";
import { db } from "@/lib/db";
import { api } from "./http";
import { signedInUser, uid } from "./factories";

// User groups and their memberships, for tests (each uniquely named).

export type TestUser = Awaited<ReturnType<typeof signedInUser>>;

/** A group created through the API by `admin` (its first active group_admin); private unless told. */
export async function createGroup(admin: TestUser, data: { private?: boolean; name?: string; display_name?: string } = {}) {
  const res = await api.post(
    "/user_groups",
    {
      user_groups: {
        name: data.name ?? `group_${uid()}`,
        private: data.private ?? true,
        ...(data.display_name ? { display_name: data.display_name } : {}),
      },
    },
    { token: admin.token },
  );
  expect(res.status).toBe(201);
  return db().userGroup.findUniqueOrThrow({ where: { id: Number(res.body.user_groups[0].id) } });
}

/** A membership written straight to the table, in any state (for setting up visibility and transitions). */
export async function addMember(
  userGroupId: number,
  userId: number,
  state: "invited" | "active" | "inactive" = "active",
  roles: string[] = ["group_member"],
) {
  return db().membership.create({ data: { userGroupId, userId, state, roles } });
}

export function join(user: TestUser, userGroupId: number, joinToken: string) {
  return api.post(
    "/memberships",
    { memberships: { join_token: joinToken, links: { user: String(user.user.id), user_group: String(userGroupId) } } },
    { token: user.token },
  );
}

export function membershipOf(userGroupId: number, userId: number) {
  return db().membership.findUniqueOrThrow({ where: { userGroupId_userId: { userGroupId, userId } } });
}

/** The current ETag of a record as `token` sees it ("*" when it cannot see it, so the write reaches its real refusal). */
export async function etagOf(path: string, token?: string): Promise<string> {
  return (await api.get(path, { token })).headers.get("etag") ?? "*";
}

/** A group with one user in each position: its group_admin, an active member, an invitee, one who left, and a stranger. */
export async function groupCast(opts: { private: boolean }) {
  const [groupAdmin, member, invitee, leaver, stranger, siteAdmin] = await Promise.all([
    signedInUser(),
    signedInUser(),
    signedInUser(),
    signedInUser(),
    signedInUser(),
    signedInUser({ admin: true }),
  ]);
  const group = await createGroup(groupAdmin, { private: opts.private });
  const memberships = {
    groupAdmin: await membershipOf(group.id, groupAdmin.user.id),
    member: await addMember(group.id, member.user.id, "active"),
    invitee: await addMember(group.id, invitee.user.id, "invited"),
    leaver: await addMember(group.id, leaver.user.id, "inactive"),
  };
  return { group, memberships, users: { groupAdmin, member, invitee, leaver, stranger, siteAdmin } };
}
