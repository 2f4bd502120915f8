import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { createProject, grantProjectRole, signedInUser, tokenFor, uid } from "@/test/factories";
import { createOrganization, createOrganizationPage, grantOrganizationRole, linkProject } from "@/test/factories-organizations";
import { resourceContract } from "@/test/resource-contract";

resourceContract({
  type: "organizations",
  async setup() {
    const owner = await signedInUser();
    const reader = await signedInUser();
    const stranger = await signedInUser();
    const organization = await createOrganization(owner.user.id, { listed: false });
    await grantOrganizationRole(organization.id, reader.user.id, ["tester"]);
    await linkProject(organization.id, (await createProject(owner.user.id)).id);
    await createOrganizationPage(organization.id);
    return { id: organization.id, writer: owner.token, reader: reader.token, stranger: stranger.token };
  },
  async seedMany(n) {
    const owner = await signedInUser();
    for (let i = 0; i < n; i++) await createOrganization(owner.user.id);
    return { query: `owner=${owner.user.login}`, token: owner.token };
  },
  async createRecord() {
    const owner = await signedInUser();
    return { record: { display_name: `New ${uid()}`, description: "An organization", primary_language: "en" }, token: owner.token };
  },
  update: { display_name: "Renamed organization", title: "Renamed organization", description: "Updated", categories: ["astronomy"] },
  invalidUpdate: { categories: "astronomy" },
  async privateRecord() {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const organization = await createOrganization(owner.user.id, { listed: false });
    return { id: organization.id, insider: owner.token, stranger: stranger.token };
  },
  destroy: true,
  strangerEditStatus: 404,
  includes: ["organization_roles", "projects", "owners", "pages", "avatar", "background", "attached_images"],
  sortable: ["display_name", "created_at", "updated_at", "listed_at"],
});

const etagOf = async (path: string, token?: string) => (await api.get(path, { token })).headers.get("etag")!;
const idsOf = (body: any, type = "organizations") => (body[type] as { id: string }[]).map((r) => Number(r.id));

describe("organizations: records", () => {
  it("serialises every attribute, links (visible projects only) and link templates", async () => {
    const owner = await signedInUser();
    const organization = await createOrganization(owner.user.id, { listed: true, categories: ["space"], tags: ["stars"] });
    const publicProject = await createProject(owner.user.id);
    const privateProject = await createProject(owner.user.id, { private: true });
    await linkProject(organization.id, publicProject.id);
    await linkProject(organization.id, privateProject.id);
    await db().medium.create({
      data: {
        type: "organization_avatar",
        linkedType: "organizations",
        linkedId: organization.id,
        contentType: "image/png",
        src: "https://cdn.example.test/logo.png",
        externalLink: true,
      },
    });
    const ownerRole = await db().organizationRole.findFirstOrThrow({ where: { organizationId: organization.id } });

    const res = await api.get(`/organizations/${organization.id}`);
    expect(res.status).toBe(200);
    const o = res.body.organizations[0];
    expect(o).toEqual({
      id: String(organization.id),
      display_name: organization.displayName,
      title: organization.displayName,
      description: "An organization",
      introduction: "",
      announcement: "",
      slug: organization.slug,
      primary_language: "en",
      available_languages: [],
      listed: true,
      listed_at: expect.stringMatching(/Z$/),
      urls: [],
      categories: ["space"],
      tags: ["stars"],
      activated_state: 0,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      updated_at: expect.stringMatching(/Z$/),
      href: `/organizations/${organization.id}`,
      avatar_src: "https://cdn.example.test/logo.png",
      links: {
        owner: { id: String(owner.user.id), display_name: owner.user.displayName, type: "users", href: `/users/${owner.user.id}` },
        organization_roles: [String(ownerRole.id)],
        projects: [String(publicProject.id)],
        pages: { href: `/organizations/${organization.id}/pages`, type: "organization_pages" },
        avatar: { href: `/organizations/${organization.id}/avatar`, type: "avatars" },
        background: { href: `/organizations/${organization.id}/background`, type: "backgrounds" },
        attached_images: { href: `/organizations/${organization.id}/attached_images`, type: "attached_images" },
      },
    });
    expect(res.body.links).toEqual({
      "organizations.owner": { href: "/{organizations.owner.href}", type: "owners" },
      "organizations.organization_roles": { href: "/organization_roles?organization_id={organizations.id}", type: "organization_roles" },
      "organizations.projects": { href: "/projects?organization_id={organizations.id}", type: "projects" },
      "organizations.pages": { href: "/organizations/{organizations.id}/pages", type: "organization_pages" },
      "organizations.avatar": { href: "/organizations/{organizations.id}/avatar", type: "media" },
      "organizations.background": { href: "/organizations/{organizations.id}/background", type: "media" },
      "organizations.attached_images": { href: "/organizations/{organizations.id}/attached_images", type: "media" },
    });

    // The private project is listed for those who can see it.
    const tester = await signedInUser();
    await grantProjectRole(privateProject.id, tester.user.id, ["tester"]);
    const admin = await signedInUser({ admin: true });
    for (const token of [owner.token, tester.token, admin.token]) {
      expect((await api.get(`/organizations/${organization.id}`, { token })).body.organizations[0].links.projects).toEqual([
        String(publicProject.id),
        String(privateProject.id),
      ]);
    }
    const stranger = await signedInUser();
    expect((await api.get(`/organizations?id=${organization.id}`, { token: stranger.token })).body.organizations[0].links.projects).toEqual(
      [String(publicProject.id)],
    );
  });

  it("includes roles (visible ones), projects (visible ones), owners, pages and media", async () => {
    const owner = await signedInUser();
    const organization = await createOrganization(owner.user.id, { listed: true });
    const publicProject = await createProject(owner.user.id);
    const privateProject = await createProject(owner.user.id, { private: true });
    await linkProject(organization.id, publicProject.id);
    await linkProject(organization.id, privateProject.id);
    const page = await createOrganizationPage(organization.id, { urlKey: "about" });
    const tester = await signedInUser();
    const testerRole = await grantOrganizationRole(organization.id, tester.user.id, ["tester"]);
    const background = await db().medium.create({
      data: {
        type: "organization_background",
        linkedType: "organizations",
        linkedId: organization.id,
        contentType: "image/png",
        src: "https://cdn.example.test/bg.png",
        externalLink: true,
      },
    });
    const path = `/organizations/${organization.id}?include=organization_roles,projects,owners,pages,background`;

    const anonymous = (await api.get(path)).body.linked;
    expect(anonymous.organization_roles).toEqual([]);
    expect(anonymous.projects.map((p: { id: string }) => p.id)).toEqual([String(publicProject.id)]);
    expect(anonymous.users.map((u: { id: string }) => u.id)).toEqual([String(owner.user.id)]);
    expect(anonymous.organization_pages.map((p: { id: string }) => p.id)).toEqual([String(page.id)]);
    expect(anonymous.organization_pages[0]).toMatchObject({
      href: `/organizations/${organization.id}/pages/${page.id}`,
      url_key: "about",
      type: "organization_pages",
    });
    expect(anonymous.backgrounds.map((m: { id: string }) => m.id)).toEqual([String(background.id)]);

    const asTester = (await api.get(path, { token: tester.token })).body.linked;
    expect(asTester.organization_roles.map((r: { id: string }) => r.id)).toEqual([String(testerRole.id)]);
    const asOwner = (await api.get(path, { token: owner.token })).body.linked;
    expect(asOwner.organization_roles).toHaveLength(2);
    expect(asOwner.projects.map((p: { id: string }) => p.id)).toEqual([String(publicProject.id), String(privateProject.id)]);
  });
});

describe("organizations: visibility", () => {
  it("shows an unlisted organization to every role holder and admins; 404 to everyone else on list, show, include and the projects filter", async () => {
    const owner = await signedInUser();
    const organization = await createOrganization(owner.user.id, { listed: false });
    const project = await createProject(owner.user.id);
    await linkProject(organization.id, project.id);
    const stranger = await signedInUser();
    const noRoles = await signedInUser();
    await grantOrganizationRole(organization.id, noRoles.user.id, []);
    const admin = await signedInUser({ admin: true });
    const viewers: [string, string | undefined, boolean][] = [
      ["anonymous", undefined, false],
      ["stranger", stranger.token, false],
      ["a role row without roles", noRoles.token, false],
      ["owner", owner.token, true],
      ["admin", admin.token, true],
    ];
    for (const role of ["collaborator", "tester", "scientist", "moderator", "translator"]) {
      const u = await signedInUser();
      await grantOrganizationRole(organization.id, u.user.id, [role]);
      viewers.push([role, u.token, true]);
    }
    for (const [who, token, sees] of viewers) {
      const show = await api.get(`/organizations/${organization.id}`, { token });
      expect(show.status, who).toBe(sees ? 200 : 404);
      expect(idsOf((await api.get(`/organizations?id=${organization.id}`, { token })).body), who).toEqual(sees ? [organization.id] : []);
      const viaProject = await api.get(`/projects/${project.id}?include=organizations`, { token });
      expect(
        (viaProject.body.linked?.organizations ?? []).map((o: { id: string }) => Number(o.id)),
        who,
      ).toEqual(sees ? [organization.id] : []);
      expect(viaProject.body.projects[0].links.organizations, who).toEqual(sees ? [String(organization.id)] : []);
      expect(idsOf((await api.get(`/projects?organization_id=${organization.id}`, { token })).body, "projects"), who).toEqual(
        sees ? [project.id] : [],
      );
      expect(idsOf((await api.get(`/organizations?project_id=${project.id}`, { token })).body), who).toEqual(sees ? [organization.id] : []);
      expect((await api.get(`/organizations/${organization.id}/pages`, { token })).status, who).toBe(sees ? 200 : 404);
    }

    // Listing it makes it public everywhere.
    await db().organization.update({ where: { id: organization.id }, data: { listed: true } });
    expect((await api.get(`/organizations/${organization.id}`)).status).toBe(200);
    expect(idsOf((await api.get(`/projects?organization_id=${organization.id}`)).body, "projects")).toEqual([project.id]);
  });
});

describe("organizations: filters and sort", () => {
  it("filters by owner, listed, display_name, slug, id, categories/category, tags, project_id and current_user_roles", async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const tag = uid();
    const a = await createOrganization(owner.user.id, {
      listed: true,
      displayName: `Alpha ${tag}`,
      categories: ["space", "physics"],
      tags: [`stars${tag}`],
    });
    const b = await createOrganization(owner.user.id, {
      listed: false,
      displayName: `Beta ${tag}`,
      categories: ["biology"],
      tags: [`birds${tag}`, `stars${tag}`],
    });
    const c = await createOrganization(other.user.id, { listed: true, displayName: `Gamma ${tag}` });
    const project = await createProject(owner.user.id);
    await linkProject(b.id, project.id);
    await grantOrganizationRole(c.id, owner.user.id, ["translator"]);
    const ids = async (q: string) => idsOf((await api.get(`/organizations?${q}`, { token: owner.token })).body).sort((x, y) => x - y);
    const sorted = (...xs: number[]) => xs.sort((x, y) => x - y);
    const cases: [string, number[]][] = [
      [`owner=${owner.user.login}`, sorted(a.id, b.id)],
      [`owner=${owner.user.login.toUpperCase()}`, sorted(a.id, b.id)],
      [`owner=${owner.user.login},${other.user.login}`, sorted(a.id, b.id, c.id)],
      [`owner=nobody_${tag}`, []],
      [`owner=${owner.user.login}&listed=true`, [a.id]],
      [`owner=${owner.user.login}&listed=false`, [b.id]],
      [`display_name=${encodeURIComponent(`Beta ${tag}`)}`, [b.id]],
      [`slug=${encodeURIComponent(a.slug)}`, [a.id]],
      [`slug=${encodeURIComponent(a.slug.toUpperCase())}`, [a.id]],
      [`id=${a.id},${c.id}`, sorted(a.id, c.id)],
      [`owner=${owner.user.login}&categories=space`, [a.id]],
      [`owner=${owner.user.login}&category=biology`, [b.id]],
      [`owner=${owner.user.login}&categories=biology,physics`, sorted(a.id, b.id)],
      [`tags=STARS${tag}`, sorted(a.id, b.id)],
      [`tags=birds${tag}`, [b.id]],
      [`project_id=${project.id}`, [b.id]],
      [`current_user_roles=translator&id=${a.id},${b.id},${c.id}`, [c.id]],
      [`current_user_roles=owner&id=${a.id},${b.id},${c.id}`, sorted(a.id, b.id)],
    ];
    for (const [q, expected] of cases) expect(await ids(q), q).toEqual(expected);
    // Anonymous callers see only listed ones, and have no roles.
    expect(idsOf((await api.get(`/organizations?owner=${owner.user.login}`)).body)).toEqual([a.id]);
    expect(idsOf((await api.get(`/organizations?current_user_roles=owner&owner=${owner.user.login}`)).body)).toEqual([]);
  });

  it("rejects malformed filter values with 422", async () => {
    for (const q of ["listed=maybe", "project_id=abc", "id=1,x"]) {
      const res = await api.get(`/organizations?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.errors[0].message.length).toBeGreaterThan(0);
    }
  });

  it("sorts by display_name and listed_at", async () => {
    const owner = await signedInUser();
    const tag = uid();
    const b = await createOrganization(owner.user.id, { displayName: `B ${tag}` });
    const a = await createOrganization(owner.user.id, { displayName: `A ${tag}` });
    const c = await createOrganization(owner.user.id, { displayName: `C ${tag}` });
    const ids = async (sort: string) =>
      idsOf((await api.get(`/organizations?owner=${owner.user.login}&sort=${sort}`, { token: owner.token })).body);
    expect(await ids("display_name")).toEqual([a.id, b.id, c.id]);
    expect(await ids("-display_name")).toEqual([c.id, b.id, a.id]);
    await db().organization.update({ where: { id: c.id }, data: { listedAt: new Date("2020-01-01T00:00:00Z") } });
    await db().organization.update({ where: { id: a.id }, data: { listedAt: new Date("2021-01-01T00:00:00Z") } });
    expect((await ids("listed_at")).slice(0, 2)).toEqual([c.id, a.id]);
  });
});

describe("organizations: search", () => {
  it("ranks an exact display name first, then similar names by similarity; fuzzy only for 3+ characters", async () => {
    const owner = await signedInUser();
    const tag = uid();
    const exact = await createOrganization(owner.user.id, { listed: true, displayName: `Penguin Watchers ${tag}` });
    const close = await createOrganization(owner.user.id, { listed: true, displayName: `Penguin Watcher ${tag}` });
    const far = await createOrganization(owner.user.id, { listed: true, displayName: `The Penguin Watchers Society of ${tag}` });
    const unrelated = await createOrganization(owner.user.id, { listed: true, displayName: `Zebra Counters ${uid()}` });
    const hidden = await createOrganization(owner.user.id, { listed: false, displayName: `penguin watchers ${tag}` });
    const search = async (q: string, token?: string, extra = "") =>
      idsOf((await api.get(`/organizations?search=${encodeURIComponent(q)}${extra}`, { token })).body);

    const found = await search(`penguin watchers ${tag}`);
    expect(found[0]).toBe(exact.id);
    expect(found).toContain(close.id);
    expect(found).toContain(far.id);
    expect(found.indexOf(close.id)).toBeLessThan(found.indexOf(far.id));
    expect(found).not.toContain(unrelated.id);
    expect(found).not.toContain(hidden.id);
    // The owner also sees the unlisted one, which is an exact match too.
    expect((await search(`Penguin Watchers ${tag}`, owner.token)).slice(0, 2).sort((x, y) => x - y)).toEqual(
      [exact.id, hidden.id].sort((x, y) => x - y),
    );
    // A misspelling still finds it.
    expect(await search(`Penguin Wachers ${tag}`)).toContain(exact.id);
    // Other filters and paging apply; an explicit sort replaces relevance.
    expect(await search(`penguin watchers ${tag}`, undefined, `&owner=${owner.user.login}&page_size=1`)).toEqual([exact.id]);
    const page2 = await api.get(`/organizations?search=${encodeURIComponent(`penguin watchers ${tag}`)}&page_size=1&page=2`);
    expect(page2.body.meta.organizations).toMatchObject({ page: 2, count: found.length });
    expect(page2.body.meta.organizations.next_href).toContain("search=");
    expect(await search(`penguin watchers ${tag}`, undefined, `&sort=-id&owner=${owner.user.login}`)).toEqual([far.id, close.id, exact.id]);
  });

  it("matches queries under 3 characters exactly only", async () => {
    const owner = await signedInUser();
    const short = await createOrganization(owner.user.id, { listed: true, displayName: "Zq" });
    const longer = await createOrganization(owner.user.id, { listed: true, displayName: `Zq ${uid()}` });
    const found = idsOf((await api.get(`/organizations?search=zq`)).body);
    expect(found).toContain(short.id);
    expect(found).not.toContain(longer.id);
  });
});

describe("organizations: create", () => {
  it("creates with the caller as owner (owner role), a slug, listed false, and linked projects it edits", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const name = `Galaxy Guild ${uid()}`;
    const res = await api.post(
      "/organizations",
      {
        organizations: {
          display_name: name,
          description: "Stars",
          primary_language: "zh-tw",
          introduction: "Intro",
          announcement: "News",
          urls: [
            { label: "Blog", url: "https://blog.example.test" },
            { url: "https://twitter.com/guild", path: "guild", site: "twitter.com/" },
          ],
          categories: ["space", "space", "physics"],
          tags: ["Stars"],
          available_languages: ["en", "zh-tw"],
          links: { projects: [String(project.id)] },
        },
      },
      { token: owner.token },
    );
    expect(res.status).toBe(201);
    const o = res.body.organizations[0];
    expect(o).toMatchObject({
      display_name: name,
      title: name,
      primary_language: "zh-tw",
      introduction: "Intro",
      announcement: "News",
      categories: ["space", "physics"],
      tags: ["stars"],
      available_languages: ["en", "zh-tw"],
      listed: false,
      listed_at: null,
      avatar_src: "",
      slug: `${owner.user.login.toLowerCase()}/${name.toLowerCase().replace(/ /g, "-")}`,
      links: { projects: [String(project.id)], owner: { id: String(owner.user.id) } },
    });
    expect(o.urls).toEqual([
      { label: "Blog", url: "https://blog.example.test" },
      { url: "https://twitter.com/guild", path: "guild", site: "twitter.com/" },
    ]);
    const roles = await api.get(`/organization_roles?organization_id=${o.id}`, { token: owner.token });
    expect(roles.body.organization_roles.map((r: { roles: string[] }) => r.roles)).toEqual([["owner"]]);
    expect(o.links.organization_roles).toEqual([roles.body.organization_roles[0].id]);
  });

  it("rejects bad creates with a message naming the problem, and creates nothing", async () => {
    const owner = await signedInUser();
    const othersProject = await createProject((await signedInUser()).user.id);
    const privateProject = await createProject((await signedInUser()).user.id, { private: true });
    const tester = await signedInUser();
    const testedProject = await createProject((await signedInUser()).user.id);
    await grantProjectRole(testedProject.id, tester.user.id, ["tester"]);
    const valid = { display_name: `Org ${uid()}`, description: "d", primary_language: "en" };
    const cases: [string, string, object, number, RegExp][] = [
      ["missing display_name", owner.token, { description: "d", primary_language: "en" }, 422, /display_name: is required/],
      ["missing description", owner.token, { display_name: valid.display_name, primary_language: "en" }, 422, /description: is required/],
      [
        "missing primary_language",
        owner.token,
        { display_name: valid.display_name, description: "d" },
        422,
        /primary_language: is required/,
      ],
      ["blank display_name", owner.token, { ...valid, display_name: "  " }, 422, /display_name: can't be blank/],
      ["bad language", owner.token, { ...valid, primary_language: "English!" }, 422, /primary_language/],
      ["url not http", owner.token, { ...valid, urls: [{ label: "x", url: "javascript:alert(1)" }] }, 422, /urls\.0\.url/],
      ["url with unknown key", owner.token, { ...valid, urls: [{ url: "https://x.test", colour: "red" }] }, 422, /colour/],
      ["categories not an array", owner.token, { ...valid, categories: "space" }, 422, /categories/],
      ["read-only slug", owner.token, { ...valid, slug: "x/y" }, 422, /slug/],
      ["read-only listed_at", owner.token, { ...valid, listed_at: "2020-01-01" }, 422, /listed_at/],
      ["listed by a non-admin", owner.token, { ...valid, listed: true }, 403, /admins/],
      [
        "another's project",
        owner.token,
        { ...valid, links: { projects: [String(othersProject.id)] } },
        422,
        new RegExp(`projects: ${othersProject.id} is not a project you can edit`),
      ],
      [
        "an invisible project",
        owner.token,
        { ...valid, links: { projects: [String(privateProject.id)] } },
        422,
        /not a project you can edit/,
      ],
      [
        "a project it only tests",
        tester.token,
        { ...valid, links: { projects: [String(testedProject.id)] } },
        422,
        /not a project you can edit/,
      ],
      ["a malformed project id", owner.token, { ...valid, links: { projects: ["abc"] } }, 422, /links.projects/],
      ["unknown link", owner.token, { ...valid, links: { users: ["1"] } }, 422, /users/],
    ];
    // Counted by the cases' own name: other test files create organizations in the same database meanwhile.
    const count = () => db().organization.count({ where: { displayName: valid.display_name } });
    const before = await count();
    for (const [name, token, record, status, message] of cases) {
      const res = await api.post("/organizations", { organizations: record }, { token });
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toMatch(message);
    }
    expect(await count()).toBe(before);
    expect(
      await db().organizationProject.count({ where: { projectId: { in: [othersProject.id, privateProject.id, testedProject.id] } } }),
    ).toBe(0);
  });

  it("lets admins create listed organizations (listed_at set) and link any project", async () => {
    const admin = await signedInUser({ admin: true });
    const project = await createProject((await signedInUser()).user.id, { private: true });
    const res = await api.post(
      "/organizations",
      {
        organizations: {
          display_name: `Listed ${uid()}`,
          description: "d",
          primary_language: "en",
          listed: true,
          links: { projects: [project.id] },
        },
      },
      { token: admin.token },
    );
    expect(res.status).toBe(201);
    expect(res.body.organizations[0]).toMatchObject({ listed: true, links: { projects: [String(project.id)] } });
    expect(Date.now() - new Date(res.body.organizations[0].listed_at).getTime()).toBeLessThan(60_000);
  });

  it("requires the organization scope on the token", async () => {
    const { user } = await signedInUser();
    const res = await api.post(
      "/organizations",
      { organizations: { display_name: "x", description: "d", primary_language: "en" } },
      { token: await tokenFor(user, ["public", "project"]) },
    );
    expect(res.status).toBe(403);
    expect(res.body.errors[0].message).toMatch(/organization/);
  });
});

describe("organizations: edit", () => {
  it("lets the owner and collaborators edit; other roles 403, strangers 404", async () => {
    const owner = await signedInUser();
    const organization = await createOrganization(owner.user.id);
    const path = `/organizations/${organization.id}`;
    const editors: [string, string][] = [["owner", owner.token]];
    const refused: [string, string, number][] = [["stranger", (await signedInUser()).token, 404]];
    const collaborator = await signedInUser();
    await grantOrganizationRole(organization.id, collaborator.user.id, ["collaborator"]);
    editors.push(["collaborator", collaborator.token], ["admin", (await signedInUser({ admin: true })).token]);
    for (const role of ["tester", "scientist", "moderator", "translator"]) {
      const u = await signedInUser();
      await grantOrganizationRole(organization.id, u.user.id, [role]);
      refused.push([role, u.token, 403]);
    }
    for (const [who, token, status] of refused) {
      const res = await api.put(
        path,
        { organizations: { description: who } },
        { token, headers: { "if-match": await etagOf(path, owner.token) } },
      );
      expect(res.status, who).toBe(status);
    }
    for (const [who, token] of editors) {
      const res = await api.put(
        path,
        { organizations: { description: `by ${who}` } },
        { token, headers: { "if-match": await etagOf(path, token) } },
      );
      expect(res.status, who).toBe(200);
      expect(res.body.organizations[0].description).toBe(`by ${who}`);
    }
  });

  it("renames with a new slug and title; an explicit title stays", async () => {
    const owner = await signedInUser();
    const organization = await createOrganization(owner.user.id);
    const path = `/organizations/${organization.id}`;
    const name = `Also a title ${uid()}`;
    const res = await api.put(
      path,
      { organizations: { display_name: name } },
      { token: owner.token, headers: { "if-match": await etagOf(path, owner.token) } },
    );
    expect(res.body.organizations[0]).toMatchObject({
      display_name: name,
      title: name,
      slug: `${owner.user.login.toLowerCase()}/${name.toLowerCase().replace(/ /g, "-")}`,
    });
    const titled = await api.put(
      path,
      { organizations: { title: "Fancy title" } },
      { token: owner.token, headers: { "if-match": res.headers.get("etag")! } },
    );
    expect(titled.body.organizations[0]).toMatchObject({ display_name: name, title: "Fancy title" });
  });

  it("keeps listing to admins: listed_at is set when listed and cleared when unlisted", async () => {
    const owner = await signedInUser();
    const admin = await signedInUser({ admin: true });
    const organization = await createOrganization(owner.user.id);
    const path = `/organizations/${organization.id}`;
    const refused = await api.put(
      path,
      { organizations: { listed: true } },
      { token: owner.token, headers: { "if-match": await etagOf(path, owner.token) } },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].message).toMatch(/Only admins may list/);
    expect((await api.get(path, { token: owner.token })).body.organizations[0]).toMatchObject({ listed: false, listed_at: null });
    // Sending back the current value is not a change.
    expect(
      (
        await api.put(
          path,
          { organizations: { listed: false, description: "same" } },
          { token: owner.token, headers: { "if-match": await etagOf(path, owner.token) } },
        )
      ).status,
    ).toBe(200);

    const listed = await api.put(
      path,
      { organizations: { listed: true } },
      { token: admin.token, headers: { "if-match": await etagOf(path, admin.token) } },
    );
    expect(listed.status).toBe(200);
    const listedAt = listed.body.organizations[0].listed_at;
    expect(listedAt).not.toBeNull();
    expect((await api.get(path)).status).toBe(200);
    // Listing again keeps the first date; other edits leave it alone.
    const again = await api.put(
      path,
      { organizations: { listed: true, description: "x" } },
      { token: admin.token, headers: { "if-match": listed.headers.get("etag")! } },
    );
    expect(again.body.organizations[0].listed_at).toBe(listedAt);
    const edited = await api.put(
      path,
      { organizations: { description: "y" } },
      { token: owner.token, headers: { "if-match": again.headers.get("etag")! } },
    );
    expect(edited.body.organizations[0]).toMatchObject({ listed: true, listed_at: listedAt });
    expect(
      (
        await api.put(
          path,
          { organizations: { listed: false } },
          { token: owner.token, headers: { "if-match": edited.headers.get("etag")! } },
        )
      ).status,
    ).toBe(403);
    const unlisted = await api.put(
      path,
      { organizations: { listed: false } },
      { token: admin.token, headers: { "if-match": edited.headers.get("etag")! } },
    );
    expect(unlisted.body.organizations[0]).toMatchObject({ listed: false, listed_at: null });
    expect((await api.get(path)).status).toBe(404);
  });

  it("replaces linked projects with links.projects (new ones must be editable) and changes nothing on refusal", async () => {
    const owner = await signedInUser();
    const organization = await createOrganization(owner.user.id);
    const keep = await createProject(owner.user.id);
    const drop = await createProject(owner.user.id);
    const add = await createProject(owner.user.id);
    const foreign = await createProject((await signedInUser()).user.id);
    await linkProject(organization.id, keep.id);
    await linkProject(organization.id, drop.id);
    const path = `/organizations/${organization.id}`;
    const before = await api.get(path, { token: owner.token });
    const refused = await api.put(
      path,
      { organizations: { description: "changed", links: { projects: [keep.id, foreign.id] } } },
      { token: owner.token, headers: { "if-match": before.headers.get("etag")! } },
    );
    expect(refused.status).toBe(422);
    const after = await api.get(path, { token: owner.token });
    expect(after.body.organizations[0]).toEqual(before.body.organizations[0]);
    const res = await api.put(
      path,
      { organizations: { links: { projects: [String(keep.id), String(add.id)] } } },
      { token: owner.token, headers: { "if-match": after.headers.get("etag")! } },
    );
    expect(res.status).toBe(200);
    expect(res.body.organizations[0].links.projects).toEqual([String(keep.id), String(add.id)].sort((x, y) => Number(x) - Number(y)));
  });
});

describe("organizations: project links", () => {
  it("links projects the caller edits (422 otherwise) and unlinks them, without If-Match", async () => {
    const owner = await signedInUser();
    const organization = await createOrganization(owner.user.id);
    const mine = await createProject(owner.user.id);
    const collaborated = await createProject((await signedInUser()).user.id);
    await grantProjectRole(collaborated.id, owner.user.id, ["collaborator"]);
    const foreign = await createProject((await signedInUser()).user.id);
    const base = `/organizations/${organization.id}/links/projects`;
    const etag = await etagOf(`/organizations/${organization.id}`, owner.token);

    const refused = await api.post(base, { projects: [String(mine.id), String(foreign.id)] }, { token: owner.token });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].message).toMatch(new RegExp(`${foreign.id}`));
    expect(await db().organizationProject.count({ where: { organizationId: organization.id } })).toBe(0);
    expect((await api.post(`/organizations/${organization.id}/links/users`, { users: ["1"] }, { token: owner.token })).status).toBe(422);

    const added = await api.post(base, { projects: [String(mine.id), collaborated.id] }, { token: owner.token });
    expect(added.status).toBe(200);
    expect(added.body.organizations[0].links.projects).toEqual([String(mine.id), String(collaborated.id)]);
    expect(added.headers.get("etag")).not.toBe(etag);
    // Linking again is harmless.
    expect((await api.post(base, { projects: [mine.id] }, { token: owner.token })).status).toBe(200);
    expect(idsOf((await api.get(`/projects?organization_id=${organization.id}`, { token: owner.token })).body, "projects")).toEqual([
      mine.id,
      collaborated.id,
    ]);

    // Only the organization's editors change its links.
    const tester = await signedInUser();
    await grantOrganizationRole(organization.id, tester.user.id, ["tester"]);
    expect((await api.delete(`${base}/${mine.id}`, { token: tester.token })).status).toBe(403);
    expect((await api.delete(`${base}/${mine.id}`, { token: (await signedInUser()).token })).status).toBe(404);
    expect((await api.delete(`${base}/${mine.id}`)).status).toBe(401);

    expect((await api.delete(`${base}/${mine.id},${collaborated.id}`, { token: owner.token })).status).toBe(204);
    expect((await api.get(`/organizations/${organization.id}`, { token: owner.token })).body.organizations[0].links.projects).toEqual([]);
    // The projects themselves remain.
    expect((await api.get(`/projects/${mine.id}`)).status).toBe(200);
  });

  it("lets admins link any project", async () => {
    const admin = await signedInUser({ admin: true });
    const organization = await createOrganization((await signedInUser()).user.id);
    const project = await createProject((await signedInUser()).user.id);
    const res = await api.post(`/organizations/${organization.id}/links/projects`, { projects: [project.id] }, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.organizations[0].links.projects).toEqual([String(project.id)]);
  });
});

describe("organizations: destroy", () => {
  it("lets owners, collaborators and admins destroy, removing roles, pages, project links and media (projects stay)", async () => {
    for (const who of ["owner", "collaborator", "admin"] as const) {
      const owner = await signedInUser();
      const organization = await createOrganization(owner.user.id);
      const actor = who === "owner" ? owner : who === "admin" ? await signedInUser({ admin: true }) : await signedInUser();
      if (who === "collaborator") await grantOrganizationRole(organization.id, actor.user.id, ["collaborator"]);
      const project = await createProject(owner.user.id);
      await linkProject(organization.id, project.id);
      await createOrganizationPage(organization.id);
      await db().medium.create({
        data: {
          type: "organization_avatar",
          linkedType: "organizations",
          linkedId: organization.id,
          contentType: "image/png",
          src: "https://cdn.example.test/a.png",
          externalLink: true,
        },
      });
      const path = `/organizations/${organization.id}`;

      const tester = await signedInUser();
      await grantOrganizationRole(organization.id, tester.user.id, ["tester"]);
      expect((await api.delete(path, { token: tester.token, headers: { "if-match": await etagOf(path, owner.token) } })).status, who).toBe(
        403,
      );

      expect((await api.delete(path, { token: actor.token, headers: { "if-match": await etagOf(path, owner.token) } })).status, who).toBe(
        204,
      );
      expect(await db().organizationRole.count({ where: { organizationId: organization.id } }), who).toBe(0);
      expect(await db().organizationPage.count({ where: { organizationId: organization.id } }), who).toBe(0);
      expect(await db().organizationProject.count({ where: { organizationId: organization.id } }), who).toBe(0);
      expect(await db().medium.count({ where: { linkedType: "organizations", linkedId: organization.id } }), who).toBe(0);
      expect(await db().project.count({ where: { id: project.id } }), who).toBe(1);
      expect((await api.get(path, { token: owner.token })).status, who).toBe(404);
    }
  });
});
