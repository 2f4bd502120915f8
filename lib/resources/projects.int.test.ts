import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { createProject, grantProjectRole, signedInUser, uid } from "@/test/factories";
import { resourceContract } from "@/test/resource-contract";

resourceContract({
  type: "projects",
  async setup() {
    const owner = await signedInUser();
    const reader = await signedInUser();
    const stranger = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    await grantProjectRole(project.id, reader.user.id, ["tester"]);
    return { id: project.id, writer: owner.token, reader: reader.token, stranger: stranger.token };
  },
  async seedMany(n) {
    const owner = await signedInUser();
    for (let i = 0; i < n; i++) await createProject(owner.user.id);
    return { query: `owner=${owner.user.login}`, token: owner.token };
  },
  async createRecord() {
    const owner = await signedInUser();
    return { record: { display_name: `New ${uid()}`, description: "A project", primary_language: "en" }, token: owner.token };
  },
  update: { display_name: "Renamed project", description: "Updated", beta_requested: true },
  invalidUpdate: { beta: "yes" },
  async privateRecord() {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    return { id: project.id, insider: owner.token, stranger: stranger.token };
  },
  destroy: true,
  strangerEditStatus: 404,
  includes: ["owners", "project_roles"],
  sortable: ["display_name", "created_at", "updated_at", "classifications_count"],
});

describe("projects: filters", () => {
  it("filters by display_name, approved, beta, live, owner and organization_id (one or several)", async () => {
    const owner = await signedInUser();
    const tag = uid();
    const a = await createProject(owner.user.id, { displayName: `Alpha ${tag}`, beta: true, live: true, approved: true });
    const b = await createProject(owner.user.id, { displayName: `Beta ${tag}`, live: true });
    const c = await createProject(owner.user.id, { displayName: `Gamma ${tag}` });
    const ids = async (q: string) =>
      ((await api.get(`/projects?owner=${owner.user.login}&${q}`)).body.projects as { id: string }[]).map((p) => Number(p.id)).sort();
    expect(await ids(`display_name=${encodeURIComponent(`Alpha ${tag}`)}`)).toEqual([a.id]);
    expect(await ids("beta=true")).toEqual([a.id]);
    expect(await ids("beta=false")).toEqual([b.id, c.id].sort());
    expect(await ids("live=true")).toEqual([a.id, b.id].sort());
    expect(await ids("approved=true")).toEqual([a.id]);
    expect(await ids("")).toEqual([a.id, b.id, c.id].sort());
    expect((await api.get(`/projects?owner=${owner.user.login.toUpperCase()}`)).body.projects).toHaveLength(3);
    expect((await api.get(`/projects?owner=nobody_${tag}`)).body.projects).toEqual([]);

    // Listed: unlisted organizations are invisible to anonymous callers (lib/resources/organizations.int.test.ts).
    const org1 = await db().organization.create({ data: { ownerId: owner.user.id, displayName: `Org1 ${tag}`, listed: true } });
    const org2 = await db().organization.create({ data: { ownerId: owner.user.id, displayName: `Org2 ${tag}`, listed: true } });
    await db().organizationProject.createMany({
      data: [
        { organizationId: org1.id, projectId: a.id },
        { organizationId: org2.id, projectId: b.id },
      ],
    });
    expect(await ids(`organization_id=${org1.id}`)).toEqual([a.id]);
    expect(await ids(`organization_id=${org1.id},${org2.id}`)).toEqual([a.id, b.id].sort());
    const res = await api.get(`/projects/${a.id}?include=organizations`);
    expect(res.body.linked.organizations.map((o: { id: string }) => o.id)).toEqual([String(org1.id)]);
    expect(res.body.projects[0].links.organizations).toEqual([String(org1.id)]);
  });

  it("rejects malformed filter values with 422", async () => {
    for (const q of ["beta=maybe", "approved=2", "organization_id=abc", "organization_id=1,x", "id=-3"]) {
      const res = await api.get(`/projects?${q}`);
      expect(res.status, q).toBe(422);
    }
  });
});

describe("projects: roles and permissions", () => {
  it("lets testers, scientists, moderators (and collaborators) see a private project; nobody else", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    for (const role of ["tester", "scientist", "moderator", "collaborator", "translator"]) {
      const u = await signedInUser();
      await grantProjectRole(project.id, u.user.id, [role]);
      expect((await api.get(`/projects/${project.id}`, { token: u.token })).status, role).toBe(200);
    }
    const noRole = await signedInUser();
    await grantProjectRole(project.id, noRole.user.id, []);
    expect((await api.get(`/projects/${project.id}`, { token: noRole.token })).status).toBe(404);
    const admin = await signedInUser({ admin: true });
    expect((await api.get(`/projects/${project.id}`, { token: admin.token })).status).toBe(200);
  });

  it("lets collaborators edit and destroy; testers and scientists may not", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const collaborator = await signedInUser();
    const scientist = await signedInUser();
    await grantProjectRole(project.id, collaborator.user.id, ["collaborator"]);
    await grantProjectRole(project.id, scientist.user.id, ["scientist"]);
    const etag = () => api.get(`/projects/${project.id}`).then((r) => r.headers.get("etag")!);
    expect(
      (
        await api.put(
          `/projects/${project.id}`,
          { projects: { description: "x" } },
          { token: scientist.token, headers: { "if-match": await etag() } },
        )
      ).status,
    ).toBe(403);
    const edit = await api.put(
      `/projects/${project.id}`,
      { projects: { description: "by collaborator" } },
      { token: collaborator.token, headers: { "if-match": await etag() } },
    );
    expect(edit.status).toBe(200);
    expect(edit.body.projects[0].description).toBe("by collaborator");
    expect((await api.delete(`/projects/${project.id}`, { token: collaborator.token, headers: { "if-match": await etag() } })).status).toBe(
      204,
    );
  });

  it("keeps counters read-only and approval admin-only", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const etag = (await api.get(`/projects/${project.id}`)).headers.get("etag")!;
    for (const field of ["classifications_count", "subjects_count", "retired_subjects_count"]) {
      expect(
        (await api.put(`/projects/${project.id}`, { projects: { [field]: 5 } }, { token: owner.token, headers: { "if-match": etag } }))
          .status,
      ).toBe(422);
    }
    expect(
      (await api.put(`/projects/${project.id}`, { projects: { approved: true } }, { token: owner.token, headers: { "if-match": etag } }))
        .status,
    ).toBe(403);
    const admin = await signedInUser({ admin: true });
    const ok = await api.put(
      `/projects/${project.id}`,
      { projects: { approved: true } },
      { token: admin.token, headers: { "if-match": etag } },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.projects[0].approved).toBe(true);
    expect(ok.body.projects[0].classifications_count).toBe(0);
  });

  // Approval is the admins' (as on the established platform): an owner asks with beta_requested or
  // launch_requested. `beta` is this API's name of beta_approved, so it is refused the same way.
  it.each([
    ["beta", { beta: true }],
    ["beta_approved", { beta_approved: true }],
    ["launch_approved", { launch_approved: true }],
    ["approved", { approved: true }],
    ["featured", { featured: true }],
    ["beta (false)", { beta: false }],
  ])("refuses an owner who sets %s, on create and on edit, and changes nothing", async (_name, fields) => {
    const owner = await signedInUser();
    const name = `Self approved ${uid()}`;
    const created = await api.post("/projects", { projects: { display_name: name, ...fields } }, { token: owner.token });
    expect(created.status).toBe(403);
    expect(created.body.errors[0].message).toMatch(/Only admins/);
    expect(await db().project.count({ where: { ownerId: owner.user.id } })).toBe(0);
    const project = await createProject(owner.user.id);
    const before = await db().project.findUniqueOrThrow({ where: { id: project.id } });
    const etag = (await api.get(`/projects/${project.id}`)).headers.get("etag")!;
    const edited = await api.put(`/projects/${project.id}`, { projects: fields }, { token: owner.token, headers: { "if-match": etag } });
    expect(edited.status).toBe(403);
    expect(await db().project.findUniqueOrThrow({ where: { id: project.id } })).toEqual(before);
  });

  it("lets an owner request beta and launch, and only an admin approve them", async () => {
    const owner = await signedInUser();
    const created = await api.post(
      "/projects",
      { projects: { display_name: `Asking ${uid()}`, beta_requested: true, launch_requested: true } },
      { token: owner.token },
    );
    expect(created.status).toBe(201);
    expect(created.body.projects[0]).toMatchObject({
      beta_requested: true,
      launch_requested: true,
      beta: false,
      beta_approved: false,
      launch_approved: false,
    });
    const id = created.body.projects[0].id;
    const admin = await signedInUser({ admin: true });
    const etag = (await api.get(`/projects/${id}`, { token: admin.token })).headers.get("etag")!;
    const approved = await api.put(
      `/projects/${id}`,
      { projects: { beta_approved: true } },
      { token: admin.token, headers: { "if-match": etag } },
    );
    expect(approved.status).toBe(200);
    expect(approved.body.projects[0]).toMatchObject({ beta: true, beta_approved: true });
  });

  it("creates with the caller as owner (owner role record), a slug, and unique display names per owner", async () => {
    const owner = await signedInUser();
    const name = `Penguin Watch ${uid()}`;
    const res = await api.post("/projects", { projects: { display_name: name, private: true } }, { token: owner.token });
    expect(res.status).toBe(201);
    const p = res.body.projects[0];
    expect(p.links.owner).toEqual({
      id: String(owner.user.id),
      display_name: owner.user.displayName,
      type: "users",
      href: `/users/${owner.user.id}`,
    });
    expect(p.slug).toBe(`${owner.user.login.toLowerCase()}/${name.toLowerCase().replace(/ /g, "-")}`);
    expect(p.private).toBe(true);
    expect(p.links.project_roles).toHaveLength(1);
    const roles = await api.get(`/project_roles?project_id=${p.id}`, { token: owner.token });
    expect(roles.body.project_roles[0].roles).toEqual(["owner"]);
    const dup = await api.post("/projects", { projects: { display_name: name } }, { token: owner.token });
    expect(dup.status).toBe(400);
    expect(dup.body.errors[0].message).toMatch(/display_name/);
    const blank = await api.post("/projects", { projects: { display_name: "  " } }, { token: owner.token });
    expect(blank.status).toBe(422);
    const missing = await api.post("/projects", { projects: { description: "no name" } }, { token: owner.token });
    expect(missing.status).toBe(422);
  });

  it("requires the project scope on the token for writes", async () => {
    const { user } = await signedInUser();
    const { tokenFor } = await import("@/test/factories");
    const publicOnly = await tokenFor(user, ["public"]);
    const res = await api.post("/projects", { projects: { display_name: `Scoped ${uid()}` } }, { token: publicOnly });
    expect(res.status).toBe(403);
    expect(res.body.errors[0].message).toMatch(/project/);
  });
});
