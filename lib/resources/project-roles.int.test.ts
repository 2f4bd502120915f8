import { describe, expect, it } from "vitest";
import { api } from "@/test/http";
import { createProject, grantProjectRole, signedInUser } from "@/test/factories";
import { resourceContract } from "@/test/resource-contract";

resourceContract({
  type: "project_roles",
  async setup() {
    const owner = await signedInUser();
    const holder = await signedInUser();
    const stranger = await signedInUser();
    const project = await createProject(owner.user.id);
    const role = await grantProjectRole(project.id, holder.user.id, ["tester"]);
    // The holder sees their own role but may not change it.
    return { id: role.id, writer: owner.token, reader: holder.token, stranger: stranger.token };
  },
  async seedMany(n) {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    for (let i = 0; i < n - 1; i++) {
      const u = await signedInUser();
      await grantProjectRole(project.id, u.user.id, ["tester"]);
    }
    return { query: `project_id=${project.id}`, token: owner.token };
  },
  async createRecord() {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const other = await signedInUser();
    return { record: { roles: ["collaborator"], links: { project: String(project.id), user: String(other.user.id) } }, token: owner.token };
  },
  update: { roles: ["scientist", "moderator"] },
  invalidUpdate: { roles: "tester" },
  async privateRecord() {
    const owner = await signedInUser();
    const holder = await signedInUser();
    const stranger = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    const role = await grantProjectRole(project.id, holder.user.id, ["tester"]);
    return { id: role.id, insider: holder.token, stranger: stranger.token };
  },
  destroy: true,
  strangerEditStatus: 403, // a public project's roles are visible to strangers, not editable
  includes: [],
  sortable: ["created_at", "updated_at"],
});

describe("project_roles: rules", () => {
  it("a public project's team is visible to anyone, signed in or not (its Team page)", async () => {
    const owner = await signedInUser();
    const holder = await signedInUser();
    const other = await signedInUser();
    const project = await createProject(owner.user.id);
    const role = await grantProjectRole(project.id, holder.user.id, ["scientist"]);
    for (const token of [undefined, other.token, holder.token]) {
      const list = await api.get(`/project_roles?project_id=${project.id}`, { token });
      expect(list.status).toBe(200);
      expect(list.body.project_roles.map((r: { roles: string[] }) => r.roles).sort()).toEqual([["owner"], ["scientist"]]);
    }
    expect((await api.get(`/project_roles/${role.id}`)).status).toBe(200);
    // Reading is all it gives: a stranger still cannot change a role.
    const etag = (await api.get(`/project_roles/${role.id}`, { token: other.token })).headers.get("etag")!;
    expect(
      (
        await api.put(
          `/project_roles/${role.id}`,
          { project_roles: { roles: ["tester"] } },
          { token: other.token, headers: { "if-match": etag } },
        )
      ).status,
    ).toBe(403);
  });

  it("a private project's roles are visible to the holder and the project's editors only, and filter by user_id and project_id", async () => {
    const owner = await signedInUser();
    const collaborator = await signedInUser();
    const holder = await signedInUser();
    const other = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    await grantProjectRole(project.id, collaborator.user.id, ["collaborator"]);
    const role = await grantProjectRole(project.id, holder.user.id, ["moderator"]);
    const count = async (token: string, q = `project_id=${project.id}`) =>
      (await api.get(`/project_roles?${q}`, { token })).body.project_roles.length;
    expect(await count(owner.token)).toBe(3);
    expect(await count(collaborator.token)).toBe(3);
    expect(await count(holder.token)).toBe(1);
    expect(await count(other.token)).toBe(0);
    expect(await count(owner.token, `project_id=${project.id}&user_id=${holder.user.id}`)).toBe(1);
    const shown = await api.get(`/project_roles/${role.id}`, { token: holder.token });
    expect(shown.body.project_roles[0]).toMatchObject({
      roles: ["moderator"],
      links: { project: String(project.id), owner: { id: String(holder.user.id), type: "users" } },
    });
    expect((await api.get(`/project_roles/${role.id}`)).status).toBe(404);
  });

  it("only editors assign roles; roles are validated; the owner role is fixed; one record per user", async () => {
    const owner = await signedInUser();
    const tester = await signedInUser();
    const newcomer = await signedInUser();
    const project = await createProject(owner.user.id);
    const testerRole = await grantProjectRole(project.id, tester.user.id, ["tester"]);
    const body = (roles: unknown, user = newcomer.user.id) => ({
      project_roles: { roles, links: { project: String(project.id), user: String(user) } },
    });

    expect((await api.post("/project_roles", body(["collaborator"]), { token: tester.token })).status).toBe(403);
    expect((await api.post("/project_roles", body(["owner"]), { token: owner.token })).status).toBe(422);
    expect((await api.post("/project_roles", body(["wizard"]), { token: owner.token })).status).toBe(422);
    expect((await api.post("/project_roles", body(["tester"], 99999999), { token: owner.token })).status).toBe(422);
    expect(
      (await api.post("/project_roles", { project_roles: { roles: [], links: { project: "abc", user: "1" } } }, { token: owner.token }))
        .status,
    ).toBe(422);
    const ok = await api.post("/project_roles", body(["collaborator"]), { token: owner.token });
    expect(ok.status).toBe(201);
    expect(ok.body.project_roles[0].roles).toEqual(["collaborator"]);
    expect((await api.post("/project_roles", body(["tester"]), { token: owner.token })).status).toBe(400);

    // A tester may not change their own roles.
    const etag = (await api.get(`/project_roles/${testerRole.id}`, { token: tester.token })).headers.get("etag")!;
    expect(
      (
        await api.put(
          `/project_roles/${testerRole.id}`,
          { project_roles: { roles: ["collaborator"] } },
          { token: tester.token, headers: { "if-match": etag } },
        )
      ).status,
    ).toBe(403);
    // The new collaborator may change others' roles.
    const newcomerToken = newcomer.token;
    const res = await api.put(
      `/project_roles/${testerRole.id}`,
      { project_roles: { roles: ["scientist"] } },
      { token: newcomerToken, headers: { "if-match": etag } },
    );
    expect(res.status).toBe(200);
    expect(res.body.project_roles[0].roles).toEqual(["scientist"]);

    const ownerRole = (await api.get(`/project_roles?project_id=${project.id}&user_id=${owner.user.id}`, { token: owner.token })).body
      .project_roles[0];
    const ownerTag = (await api.get(`/project_roles/${ownerRole.id}`, { token: owner.token })).headers.get("etag")!;
    expect(
      (
        await api.put(
          `/project_roles/${ownerRole.id}`,
          { project_roles: { roles: ["tester"] } },
          { token: owner.token, headers: { "if-match": ownerTag } },
        )
      ).status,
    ).toBe(422);
    expect((await api.delete(`/project_roles/${ownerRole.id}`, { token: owner.token, headers: { "if-match": ownerTag } })).status).toBe(
      422,
    );
  });

  it("cannot assign roles on a private project the caller cannot see (404)", async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    const res = await api.post(
      "/project_roles",
      { project_roles: { roles: ["tester"], links: { project: String(project.id), user: String(other.user.id) } } },
      { token: other.token },
    );
    expect(res.status).toBe(404);
  });
});
