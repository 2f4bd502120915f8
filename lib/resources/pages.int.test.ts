import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { createProject, grantProjectRole, signedInUser, uid } from "@/test/factories";
import { createOrganization, createOrganizationPage, createProjectPage, grantOrganizationRole } from "@/test/factories-organizations";
import { resourceContract } from "@/test/resource-contract";

// Project pages (/projects/<id>/pages) and organization pages (/organizations/<id>/pages): reading follows
// the parent's visibility, writing its edit permission (translators: languages other than the primary one).

resourceContract({
  type: "project_pages",
  async setup() {
    const owner = await signedInUser();
    const reader = await signedInUser();
    const stranger = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    await grantProjectRole(project.id, reader.user.id, ["tester"]);
    const page = await createProjectPage(project.id);
    return { base: `/projects/${project.id}/pages`, id: page.id, writer: owner.token, reader: reader.token, stranger: stranger.token };
  },
  async seedMany(n) {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    for (let i = 0; i < n; i++) await createProjectPage(project.id);
    return { base: `/projects/${project.id}/pages`, query: "", token: owner.token };
  },
  async createRecord() {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    return {
      base: `/projects/${project.id}/pages`,
      record: { url_key: "science_case", title: "Science", language: "en", content: "Why" },
      token: owner.token,
    };
  },
  update: { title: "Renamed", content: "New text" },
  invalidUpdate: { content: 5 },
  async privateRecord() {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    const page = await createProjectPage(project.id);
    return { base: `/projects/${project.id}/pages`, id: page.id, insider: owner.token, stranger: stranger.token };
  },
  strangerEditStatus: 404,
  includes: ["project"],
  sortable: ["url_key", "language", "title", "created_at", "updated_at"],
});

resourceContract({
  type: "organization_pages",
  async setup() {
    const owner = await signedInUser();
    const reader = await signedInUser();
    const stranger = await signedInUser();
    const organization = await createOrganization(owner.user.id);
    await grantOrganizationRole(organization.id, reader.user.id, ["tester"]);
    const page = await createOrganizationPage(organization.id);
    return {
      base: `/organizations/${organization.id}/pages`,
      id: page.id,
      writer: owner.token,
      reader: reader.token,
      stranger: stranger.token,
    };
  },
  async seedMany(n) {
    const owner = await signedInUser();
    const organization = await createOrganization(owner.user.id, { listed: true });
    for (let i = 0; i < n; i++) await createOrganizationPage(organization.id);
    return { base: `/organizations/${organization.id}/pages`, query: "", token: owner.token };
  },
  async createRecord() {
    const owner = await signedInUser();
    const organization = await createOrganization(owner.user.id);
    return {
      base: `/organizations/${organization.id}/pages`,
      record: { url_key: "about", title: "About us", language: "en", content: "Who" },
      token: owner.token,
    };
  },
  update: { title: "Renamed", url_key: "team" },
  invalidUpdate: { title: ["x"] },
  async privateRecord() {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const organization = await createOrganization(owner.user.id, { listed: false });
    const page = await createOrganizationPage(organization.id);
    return { base: `/organizations/${organization.id}/pages`, id: page.id, insider: owner.token, stranger: stranger.token };
  },
  strangerEditStatus: 404,
  includes: ["organization"],
  sortable: ["url_key", "language", "title", "created_at", "updated_at"],
});

const ifMatch = async (path: string, token?: string) => ({ "if-match": (await api.get(path, { token })).headers.get("etag")! });

describe("project pages: records, filters and rules", () => {
  it("serialises the reference platform's shape", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const res = await api.post(
      `/projects/${project.id}/pages`,
      { project_pages: { url_key: "faq", title: "FAQ", language: "en", content: "Q and A" } },
      { token: owner.token },
    );
    expect(res.status).toBe(201);
    const page = res.body.project_pages[0];
    expect(page).toEqual({
      id: page.id,
      href: `/projects/${project.id}/pages/${page.id}`,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      updated_at: expect.stringMatching(/Z$/),
      url_key: "faq",
      title: "FAQ",
      language: "en",
      content: "Q and A",
      type: "project_pages",
      links: { project: String(project.id) },
    });
    expect(res.body.links["project_pages.project"]).toEqual({ href: "/projects/{project_pages.project}", type: "projects" });
    const included = await api.get(`/projects/${project.id}/pages/${page.id}?include=project`);
    expect(included.body.linked.projects.map((p: { id: string }) => p.id)).toEqual([String(project.id)]);
  });

  it("filters by url_key and language, and lists English pages unless a language is asked for", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const science = await createProjectPage(project.id, { urlKey: "science_case" });
    const faq = await createProjectPage(project.id, { urlKey: "faq" });
    const scienceTw = await createProjectPage(project.id, { urlKey: "science_case", language: "zh-tw" });
    const ids = async (q: string) =>
      ((await api.get(`/projects/${project.id}/pages${q}`)).body.project_pages as { id: string }[])
        .map((p) => Number(p.id))
        .sort((a, b) => a - b);
    const cases: [string, number[]][] = [
      ["", [science.id, faq.id]],
      ["?url_key=science_case", [science.id]],
      ["?language=zh-tw", [scienceTw.id]],
      ["?language=ZH-TW", [scienceTw.id]],
      ["?language=zh-tw&url_key=faq", []],
      ["?url_key=nothing", []],
    ];
    for (const [q, expected] of cases) expect(await ids(q), q).toEqual(expected.sort((a, b) => a - b));
    const meta = (await api.get(`/projects/${project.id}/pages?page_size=1`)).body.meta.project_pages;
    expect(meta.next_href).toMatch(new RegExp(`^/projects/${project.id}/pages\\?`));
  });

  it("keeps one page per url_key and language: a second is 400 with a message and nothing changes", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const base = `/projects/${project.id}/pages`;
    const first = await api.post(base, { project_pages: { url_key: "team", content: "A" } }, { token: owner.token });
    expect(first.status).toBe(201);
    expect(first.body.project_pages[0].language).toBe("en");
    const dup = await api.post(base, { project_pages: { url_key: "team", language: "en", content: "B" } }, { token: owner.token });
    expect(dup.status).toBe(400);
    expect(dup.body.errors[0].message).toMatch(/url_key 'team'.*language 'en'/);
    expect(await db().projectPage.count({ where: { projectId: project.id } })).toBe(1);

    // Another language is another page; renaming it onto the first one's key is the same clash.
    const fr = await api.post(base, { project_pages: { url_key: "equipe", language: "fr" } }, { token: owner.token });
    expect(fr.status).toBe(201);
    const path = `${base}/${fr.body.project_pages[0].id}`;
    const h = await ifMatch(path);
    const clash = await api.put(path, { project_pages: { url_key: "team", language: "en" } }, { token: owner.token, headers: h });
    expect(clash.status).toBe(400);
    expect((await api.get(path)).body.project_pages[0]).toMatchObject({ url_key: "equipe", language: "fr" });
  });

  it("rejects bad creates with a message naming the attribute, and creates nothing", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const base = `/projects/${project.id}/pages`;
    const cases: [string, object, RegExp][] = [
      ["missing url_key", { title: "x" }, /url_key: is required/],
      ["blank url_key", { url_key: "  " }, /url_key: can't be blank/],
      ["bad language", { url_key: "a", language: "english!" }, /language/],
      ["title not a string", { url_key: "a", title: 3 }, /title/],
      ["links are not writable", { url_key: "a", links: { project: String(project.id) } }, /links/],
    ];
    for (const [name, record, message] of cases) {
      const res = await api.post(base, { project_pages: record }, { token: owner.token });
      expect(res.status, name).toBe(422);
      expect(res.body.errors[0].message, name).toMatch(message);
    }
    expect(await db().projectPage.count({ where: { projectId: project.id } })).toBe(0);
    const missingParent = await api.post(`/projects/99999999/pages`, { project_pages: { url_key: "a" } }, { token: owner.token });
    expect(missingParent.status).toBe(404);
  });

  it("is visible as its project is: anonymous and strangers 404, every role, the owner and admins 200", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    const page = await createProjectPage(project.id);
    const path = `/projects/${project.id}/pages/${page.id}`;
    const stranger = await signedInUser();
    const admin = await signedInUser({ admin: true });
    const viewers: [string, string | undefined, number][] = [
      ["anonymous", undefined, 404],
      ["stranger", stranger.token, 404],
      ["owner", owner.token, 200],
      ["admin", admin.token, 200],
    ];
    for (const role of ["collaborator", "tester", "scientist", "moderator", "translator"]) {
      const u = await signedInUser();
      await grantProjectRole(project.id, u.user.id, [role]);
      viewers.push([role, u.token, 200]);
    }
    for (const [who, token, status] of viewers) {
      expect((await api.get(path, { token })).status, who).toBe(status);
      const list = await api.get(`/projects/${project.id}/pages`, { token });
      expect(list.status, who).toBe(status);
      if (status === 200)
        expect(
          list.body.project_pages.map((p: { id: string }) => p.id),
          who,
        ).toEqual([String(page.id)]);
    }
  });

  it("lets owners and collaborators write every page; translators only languages other than the primary one", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const collaborator = await signedInUser();
    const translator = await signedInUser();
    const tester = await signedInUser();
    await grantProjectRole(project.id, collaborator.user.id, ["collaborator"]);
    await grantProjectRole(project.id, translator.user.id, ["translator"]);
    await grantProjectRole(project.id, tester.user.id, ["tester"]);
    const base = `/projects/${project.id}/pages`;
    const create = (token: string, language: string, urlKey = `k_${uid()}`) =>
      api.post(base, { project_pages: { url_key: urlKey, language } }, { token });

    const writes: [string, string, string, number][] = [
      ["collaborator", collaborator.token, "en", 201],
      ["collaborator", collaborator.token, "de", 201],
      ["translator", translator.token, "de", 201],
      ["translator", translator.token, "en", 403],
      ["tester", tester.token, "de", 403],
      ["tester", tester.token, "en", 403],
    ];
    for (const [who, token, language, status] of writes) expect((await create(token, language)).status, `${who} ${language}`).toBe(status);

    const english = await createProjectPage(project.id, { urlKey: "results" });
    const german = await createProjectPage(project.id, { urlKey: "results", language: "de" });
    const path = (id: number) => `${base}/${id}`;
    // A translator edits the German page, not the English one, and cannot move a page into English.
    expect(
      (
        await api.put(
          path(english.id),
          { project_pages: { content: "x" } },
          { token: translator.token, headers: await ifMatch(path(english.id)) },
        )
      ).status,
    ).toBe(403);
    const edited = await api.put(
      path(german.id),
      { project_pages: { content: "Ergebnisse" } },
      { token: translator.token, headers: await ifMatch(path(german.id)) },
    );
    expect(edited.status).toBe(200);
    expect(edited.body.project_pages[0].content).toBe("Ergebnisse");
    const moved = await api.put(
      path(german.id),
      { project_pages: { language: "en", url_key: "other" } },
      { token: translator.token, headers: await ifMatch(path(german.id)) },
    );
    expect(moved.status).toBe(403);
    expect((await api.get(path(german.id))).body.project_pages[0]).toMatchObject({ language: "de", url_key: "results" });
    expect((await api.delete(path(english.id), { token: translator.token, headers: await ifMatch(path(english.id)) })).status).toBe(403);
    expect((await api.delete(path(german.id), { token: translator.token, headers: await ifMatch(path(german.id)) })).status).toBe(204);
    expect((await api.delete(path(english.id), { token: collaborator.token, headers: await ifMatch(path(english.id)) })).status).toBe(204);
  });

  it("needs the project scope on the token for writes", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const { tokenFor } = await import("@/test/factories");
    const res = await api.post(
      `/projects/${project.id}/pages`,
      { project_pages: { url_key: "a" } },
      { token: await tokenFor(owner.user, ["public"]) },
    );
    expect(res.status).toBe(403);
    expect(res.body.errors[0].message).toMatch(/project/);
  });
});

describe("organization pages: rules", () => {
  it("is visible as its organization is, and written by its editors (translators: other languages)", async () => {
    const owner = await signedInUser();
    const organization = await createOrganization(owner.user.id, { listed: false });
    const page = await createOrganizationPage(organization.id, { urlKey: "about" });
    const base = `/organizations/${organization.id}/pages`;
    const stranger = await signedInUser();
    const admin = await signedInUser({ admin: true });
    const holders: Record<string, { token: string }> = {};
    for (const role of ["collaborator", "tester", "scientist", "moderator", "translator"]) {
      const u = await signedInUser();
      await grantOrganizationRole(organization.id, u.user.id, [role]);
      holders[role] = u;
    }
    const readers: [string, string | undefined, number][] = [
      ["anonymous", undefined, 404],
      ["stranger", stranger.token, 404],
      ["owner", owner.token, 200],
      ["admin", admin.token, 200],
      ...Object.entries(holders).map(([role, u]): [string, string, number] => [role, u.token, 200]),
    ];
    for (const [who, token, status] of readers) {
      expect((await api.get(`${base}/${page.id}`, { token })).status, who).toBe(status);
      expect((await api.get(base, { token })).status, who).toBe(status);
    }

    const create = (token: string, language: string) =>
      api.post(base, { organization_pages: { url_key: `k_${uid()}`, language } }, { token });
    const writes: [string, string, string, number][] = [
      ["owner", owner.token, "en", 201],
      ["collaborator", holders.collaborator.token, "en", 201],
      ["admin", admin.token, "en", 201],
      ["translator", holders.translator.token, "fr", 201],
      ["translator", holders.translator.token, "en", 403],
      ["tester", holders.tester.token, "fr", 403],
      ["moderator", holders.moderator.token, "en", 403],
      ["stranger", stranger.token, "en", 404],
    ];
    for (const [who, token, language, status] of writes) expect((await create(token, language)).status, `${who} ${language}`).toBe(status);

    // Listing the organization makes its pages public.
    await db().organization.update({ where: { id: organization.id }, data: { listed: true } });
    expect((await api.get(`${base}/${page.id}`)).status).toBe(200);
    expect((await api.get(`${base}/${page.id}?include=organization`)).body.linked.organizations[0].id).toBe(String(organization.id));
  });
});
