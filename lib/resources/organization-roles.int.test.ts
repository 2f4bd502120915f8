import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { signedInUser } from "@/test/factories";
import { createOrganization, grantOrganizationRole } from "@/test/factories-organizations";
import { resourceContract } from "@/test/resource-contract";

resourceContract({
  type: "organization_roles",
  async setup() {
    const owner = await signedInUser();
    const holder = await signedInUser();
    const stranger = await signedInUser();
    const organization = await createOrganization(owner.user.id);
    const role = await grantOrganizationRole(organization.id, holder.user.id, ["tester"]);
    // The holder sees their own role but may not change it.
    return { id: role.id, writer: owner.token, reader: holder.token, stranger: stranger.token };
  },
  async seedMany(n) {
    const owner = await signedInUser();
    const organization = await createOrganization(owner.user.id);
    for (let i = 0; i < n - 1; i++) {
      const u = await signedInUser();
      await grantOrganizationRole(organization.id, u.user.id, ["tester"]);
    }
    return { query: `organization_id=${organization.id}`, token: owner.token };
  },
  async createRecord() {
    const owner = await signedInUser();
    const organization = await createOrganization(owner.user.id);
    const other = await signedInUser();
    return {
      record: { roles: ["collaborator"], links: { organization: String(organization.id), user: String(other.user.id) } },
      token: owner.token,
    };
  },
  update: { roles: ["scientist", "moderator"] },
  invalidUpdate: { roles: "tester" },
  async privateRecord() {
    const owner = await signedInUser();
    const holder = await signedInUser();
    const stranger = await signedInUser();
    const organization = await createOrganization(owner.user.id, { listed: true });
    const role = await grantOrganizationRole(organization.id, holder.user.id, ["tester"]);
    return { id: role.id, insider: holder.token, stranger: stranger.token };
  },
  destroy: true,
  strangerEditStatus: 404,
  includes: [],
  sortable: ["created_at", "updated_at"],
});

describe("organization_roles: rules", () => {
  it("is visible to the holder, the organization's editors and admins only; filters by user_id and organization_id", async () => {
    const owner = await signedInUser();
    const collaborator = await signedInUser();
    const holder = await signedInUser();
    const translator = await signedInUser();
    const other = await signedInUser();
    const admin = await signedInUser({ admin: true });
    const organization = await createOrganization(owner.user.id, { listed: true });
    await grantOrganizationRole(organization.id, collaborator.user.id, ["collaborator"]);
    await grantOrganizationRole(organization.id, translator.user.id, ["translator"]);
    const role = await grantOrganizationRole(organization.id, holder.user.id, ["moderator"]);
    const count = async (token: string | undefined, q = `organization_id=${organization.id}`) =>
      (await api.get(`/organization_roles?${q}`, { token })).body.organization_roles.length;
    const cases: [string, string | undefined, number][] = [
      ["owner", owner.token, 4],
      ["collaborator", collaborator.token, 4],
      ["admin", admin.token, 4],
      ["holder", holder.token, 1],
      ["translator (sees only its own)", translator.token, 1],
      ["stranger", other.token, 0],
      ["anonymous", undefined, 0],
    ];
    for (const [who, token, n] of cases) expect(await count(token), who).toBe(n);
    expect(await count(owner.token, `organization_id=${organization.id}&user_id=${holder.user.id}`)).toBe(1);
    expect(await count(owner.token, `user_id=${holder.user.id},${translator.user.id}`)).toBe(2);
    const shown = await api.get(`/organization_roles/${role.id}`, { token: holder.token });
    expect(shown.body.organization_roles[0]).toEqual({
      id: String(role.id),
      roles: ["moderator"],
      created_at: expect.any(String),
      updated_at: expect.any(String),
      href: `/organization_roles/${role.id}`,
      links: {
        organization: String(organization.id),
        owner: { id: String(holder.user.id), display_name: holder.user.displayName, type: "users", href: `/users/${holder.user.id}` },
      },
    });
    expect(shown.body.links["organization_roles.organization"]).toEqual({
      href: "/organizations/{organization_roles.organization}",
      type: "organizations",
    });
    for (const token of [undefined, other.token, translator.token])
      expect((await api.get(`/organization_roles/${role.id}`, { token })).status).toBe(404);
  });

  it("only editors assign roles; roles are validated; the owner role is fixed; one record per user", async () => {
    const owner = await signedInUser();
    const tester = await signedInUser();
    const newcomer = await signedInUser();
    const organization = await createOrganization(owner.user.id);
    const testerRole = await grantOrganizationRole(organization.id, tester.user.id, ["tester"]);
    const body = (roles: unknown, user: unknown = newcomer.user.id, org: unknown = organization.id) => ({
      organization_roles: { roles, links: { organization: String(org), user: String(user) } },
    });
    const before = await db().organizationRole.count({ where: { organizationId: organization.id } });

    const refused: [string, string, object, number, RegExp][] = [
      ["a tester assigning", tester.token, body(["collaborator"]), 403, /owner and collaborators/],
      ["the owner role", owner.token, body(["owner"]), 422, /roles must be among/],
      ["an unknown role", owner.token, body(["wizard"]), 422, /roles must be among/],
      ["a missing user", owner.token, body(["tester"], 99999999), 422, /No user/],
      ["a malformed organization id", owner.token, body(["tester"], newcomer.user.id, "abc"), 422, /links.organization/],
      ["a missing organization", owner.token, body(["tester"], newcomer.user.id, 99999999), 404, /organizations/],
      ["no links", owner.token, { organization_roles: { roles: [] } }, 422, /links/],
    ];
    for (const [name, token, b, status, message] of refused) {
      const res = await api.post("/organization_roles", b, { token });
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toMatch(message);
    }
    expect(await db().organizationRole.count({ where: { organizationId: organization.id } })).toBe(before);

    const ok = await api.post("/organization_roles", body(["collaborator", "collaborator"]), { token: owner.token });
    expect(ok.status).toBe(201);
    expect(ok.body.organization_roles[0].roles).toEqual(["collaborator"]);
    const dup = await api.post("/organization_roles", body(["tester"]), { token: owner.token });
    expect(dup.status).toBe(400);
    expect(dup.body.errors[0].message).toMatch(/already has a role record on this organization/);

    // A tester may not change their own roles; the new collaborator may change others'.
    const path = `/organization_roles/${testerRole.id}`;
    const etag = (await api.get(path, { token: tester.token })).headers.get("etag")!;
    expect(
      (await api.put(path, { organization_roles: { roles: ["collaborator"] } }, { token: tester.token, headers: { "if-match": etag } }))
        .status,
    ).toBe(403);
    const res = await api.put(
      path,
      { organization_roles: { roles: ["scientist"] } },
      { token: newcomer.token, headers: { "if-match": etag } },
    );
    expect(res.status).toBe(200);
    expect(res.body.organization_roles[0].roles).toEqual(["scientist"]);

    const ownerRole = (
      await api.get(`/organization_roles?organization_id=${organization.id}&user_id=${owner.user.id}`, { token: owner.token })
    ).body.organization_roles[0];
    const ownerTag = (await api.get(`/organization_roles/${ownerRole.id}`, { token: owner.token })).headers.get("etag")!;
    const ownerEdit = await api.put(
      `/organization_roles/${ownerRole.id}`,
      { organization_roles: { roles: ["tester"] } },
      { token: owner.token, headers: { "if-match": ownerTag } },
    );
    expect(ownerEdit.status).toBe(422);
    expect(ownerEdit.body.errors[0].message).toMatch(/owner/);
    expect(
      (await api.delete(`/organization_roles/${ownerRole.id}`, { token: owner.token, headers: { "if-match": ownerTag } })).status,
    ).toBe(422);
    expect((await api.get(`/organization_roles/${ownerRole.id}`, { token: owner.token })).body.organization_roles[0].roles).toEqual([
      "owner",
    ]);
  });

  it("cannot assign roles on an unlisted organization the caller cannot see (404)", async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const organization = await createOrganization(owner.user.id, { listed: false });
    const res = await api.post(
      "/organization_roles",
      { organization_roles: { roles: ["tester"], links: { organization: String(organization.id), user: String(other.user.id) } } },
      { token: other.token },
    );
    expect(res.status).toBe(404);
  });

  it("needs the organization scope on the token for writes", async () => {
    const owner = await signedInUser();
    const organization = await createOrganization(owner.user.id);
    const other = await signedInUser();
    const { tokenFor } = await import("@/test/factories");
    const res = await api.post(
      "/organization_roles",
      { organization_roles: { roles: ["tester"], links: { organization: String(organization.id), user: String(other.user.id) } } },
      { token: await tokenFor(owner.user, ["public", "project"]) },
    );
    expect(res.status).toBe(403);
    expect(res.body.errors[0].message).toMatch(/organization/);
  });
});
