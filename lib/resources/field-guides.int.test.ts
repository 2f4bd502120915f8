import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api } from "@/test/http";
import { createProject, grantProjectRole, signedInUser } from "@/test/factories";
import { attachImage, createFieldGuide, CREATE_STATUSES, PEOPLE, projectWithPeople, type Person } from "@/test/factories-project-content";
import { resourceContract } from "@/test/resource-contract";

resourceContract({
  type: "field_guides",
  async setup() {
    const owner = await signedInUser();
    const reader = await signedInUser();
    const stranger = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    await grantProjectRole(project.id, reader.user.id, ["tester"]);
    const guide = await createFieldGuide(project.id);
    await attachImage("field_guides", guide.id);
    return { id: guide.id, writer: owner.token, reader: reader.token, stranger: stranger.token };
  },
  async seedMany(n) {
    // One guide per project and language, so n English guides need n projects.
    const owner = await signedInUser();
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      const project = await createProject(owner.user.id);
      await createFieldGuide(project.id);
      ids.push(project.id);
    }
    return { query: `project_id=${ids.join(",")}`, token: owner.token };
  },
  async createRecord() {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    return {
      record: { language: "en", items: [{ icon: "789", title: "Zebra", content: "Stripes" }], links: { project: String(project.id) } },
      token: owner.token,
    };
  },
  update: { items: [{ title: "Okapi", content: "", icon: "12" }] },
  invalidUpdate: { items: "not a list" },
  async privateRecord() {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    const guide = await createFieldGuide(project.id);
    return { id: guide.id, insider: owner.token, stranger: stranger.token };
  },
  destroy: true,
  strangerEditStatus: 404,
  includes: ["project", "attached_images"],
  sortable: ["created_at", "updated_at", "language"],
});

const ids = (res: { body: { field_guides: { id: string }[] } }) => res.body.field_guides.map((g) => Number(g.id));

async function put(id: number, token: string | undefined, record: object) {
  const etag = (await api.get(`/field_guides/${id}`, { token: token ?? undefined })).headers.get("etag") ?? '"none"';
  return api.put(`/field_guides/${id}`, { field_guides: record }, { token, headers: { "if-match": etag } });
}

describe("field guides: the record", () => {
  it("serializes items, language, links and media templates as the established platform does", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const items = [
      { icon: "5", title: "Zebra", content: "Stripes" },
      { title: "Lion", content: "" },
    ];
    const created = await api.post(
      "/field_guides",
      { field_guides: { language: "en", items, links: { project: String(project.id) } } },
      { token: owner.token },
    );
    expect(created.status).toBe(201);
    const guide = created.body.field_guides[0];
    expect(guide).toEqual({
      id: guide.id,
      items,
      language: "en",
      href: `/field_guides/${guide.id}`,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: expect.stringMatching(/Z$/),
      links: {
        project: String(project.id),
        attached_images: { href: `/field_guides/${guide.id}/attached_images`, type: "attached_images" },
      },
    });
    expect(created.body.links).toEqual({
      "field_guides.project": { href: "/projects/{field_guides.project}", type: "projects" },
      "field_guides.attached_images": { href: "/field_guides/{field_guides.id}/attached_images", type: "media" },
    });
  });

  it("includes the project and the guide's attached images (not other records' media)", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const guide = await createFieldGuide(project.id);
    const other = await createFieldGuide((await createProject(owner.user.id)).id);
    const image = await attachImage("field_guides", guide.id);
    await attachImage("field_guides", other.id);
    const res = await api.get(`/field_guides/${guide.id}?include=project,attached_images`);
    expect(res.status).toBe(200);
    expect(res.body.linked.projects.map((p: { id: string }) => p.id)).toEqual([String(project.id)]);
    expect(res.body.linked.attached_images.map((m: { id: string }) => m.id)).toEqual([String(image.id)]);
    expect(res.body.linked.attached_images[0]).toMatchObject({
      media_type: "field_guide_attached_image",
      links: { linked: { id: String(guide.id), type: "field_guides" } },
    });
  });
});

describe("field guides: list filters", () => {
  it("filters by project_id (one or several), language (exact; English by default) and id, and sorts by language", async () => {
    const owner = await signedInUser();
    const a = await createProject(owner.user.id);
    const b = await createProject(owner.user.id);
    const aEn = await createFieldGuide(a.id);
    const aEsMx = await createFieldGuide(a.id, { language: "es-mx" });
    const aFr = await createFieldGuide(a.id, { language: "fr" });
    const bEn = await createFieldGuide(b.id);
    const cases: [string, number[]][] = [
      [`project_id=${a.id}`, [aEn.id]],
      [`project_id=${a.id},${b.id}`, [aEn.id, bEn.id]],
      [`project_id=${a.id}&language=es-mx`, [aEsMx.id]],
      [`project_id=${a.id}&language=es-MX`, []],
      [`project_id=${a.id}&language=de`, []],
      [`project_id=${a.id}&language=`, [aEn.id]],
      [`id=${aFr.id}`, []],
      [`id=${aFr.id}&language=fr`, [aFr.id]],
      [`id=${aEn.id},${bEn.id}`, [aEn.id, bEn.id]],
    ];
    for (const [query, expected] of cases) {
      const res = await api.get(`/field_guides?${query}`);
      expect(res.status, query).toBe(200);
      expect(ids(res), query).toEqual(expected);
    }
    // The default language stays in the paging links, so following them keeps the same list.
    expect((await api.get(`/field_guides?project_id=${a.id}`)).body.meta.field_guides.first_href).toMatch(/language=en/);
    for (const bad of ["project_id=abc", "project_id=1,x", "id=nope"])
      expect((await api.get(`/field_guides?${bad}`)).status, bad).toBe(422);
  });

  it("sorts by updated_at (an edit moves a guide last)", async () => {
    const owner = await signedInUser();
    const guides = [];
    for (let i = 0; i < 3; i++) guides.push(await createFieldGuide((await createProject(owner.user.id)).id));
    expect((await put(guides[0].id, owner.token, { items: [] })).status).toBe(200);
    const query = `project_id=${guides.map((g) => g.projectId).join(",")}`;
    expect(ids(await api.get(`/field_guides?${query}&sort=updated_at`))).toEqual([guides[1].id, guides[2].id, guides[0].id]);
    expect(ids(await api.get(`/field_guides?${query}&sort=-created_at`))).toEqual([guides[2].id, guides[1].id, guides[0].id]);
  });
});

describe("field guides: visibility follows the project", () => {
  const mayRead = (who: Person) => who !== "anonymous" && who !== "stranger";

  it("shows a private project's guide to its role holders, owner and admins only (404 otherwise, in show and list)", async () => {
    const { project, token } = await projectWithPeople({ private: true });
    const guide = await createFieldGuide(project.id);
    for (const who of PEOPLE) {
      const show = await api.get(`/field_guides/${guide.id}`, { token: token(who) });
      expect(show.status, who).toBe(mayRead(who) ? 200 : 404);
      if (!mayRead(who)) expect(show.body.errors[0].message, who).toMatch(/Could not find/);
      const list = await api.get(`/field_guides?project_id=${project.id}`, { token: token(who) });
      expect(ids(list), who).toEqual(mayRead(who) ? [guide.id] : []);
      const byId = await api.get(`/field_guides?id=${guide.id}`, { token: token(who) });
      expect(ids(byId), who).toEqual(mayRead(who) ? [guide.id] : []);
    }
  });

  it("shows a public project's guide to everyone", async () => {
    const { project, token } = await projectWithPeople();
    const guide = await createFieldGuide(project.id);
    for (const who of PEOPLE)
      expect((await api.get(`/field_guides/${guide.id}?include=project`, { token: token(who) })).status, who).toBe(200);
  });
});

describe("field guides: create", () => {
  const body = (projectId: number, language: string) => ({
    field_guides: { language, items: [{ title: "Zebra", content: "Stripes" }], links: { project: String(projectId) } },
  });

  it("lets editors create in any language and translators in languages other than the project's primary one", async () => {
    const expected = CREATE_STATUSES;
    for (const who of PEOPLE) {
      // A fresh project per person: one guide per project and language.
      const pub = await projectWithPeople();
      const priv = await projectWithPeople({ private: true });
      const got = {
        private: (await api.post("/field_guides", body(priv.project.id, "de"), { token: priv.token(who) })).status,
        en: (await api.post("/field_guides", body(pub.project.id, "en"), { token: pub.token(who) })).status,
        fr: (await api.post("/field_guides", body(pub.project.id, "fr"), { token: pub.token(who) })).status,
      };
      expect(got, who).toEqual(expected[who]);
      const made = await db().fieldGuide.count({ where: { projectId: { in: [pub.project.id, priv.project.id] } } });
      expect(made, who).toBe(Object.values(got).filter((s) => s === 201).length);
    }
  });

  it("treats the primary language as the project's own, whatever it is", async () => {
    const { project, token } = await projectWithPeople({ primaryLanguage: "fr" });
    expect((await api.post("/field_guides", body(project.id, "fr"), { token: token("translator") })).status).toBe(403);
    expect((await api.post("/field_guides", body(project.id, "en"), { token: token("translator") })).status).toBe(201);
  });

  it("allows one guide per project and language (400 naming the existing guide), without regard to case", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const first = await api.post("/field_guides", body(project.id, "en"), { token: owner.token });
    expect(first.status).toBe(201);
    for (const language of ["en", "EN"]) {
      const again = await api.post("/field_guides", body(project.id, language), { token: owner.token });
      expect(again.status, language).toBe(400);
      expect(again.body.errors[0].message).toContain(`field_guides/${first.body.field_guides[0].id}`);
    }
    expect((await api.post("/field_guides", body(project.id, "es-mx"), { token: owner.token })).status).toBe(201);
    expect(await db().fieldGuide.count({ where: { projectId: project.id } })).toBe(2);
  });

  it("keeps one guide per language under concurrent creates", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const answers = await Promise.all([1, 2, 3].map(() => api.post("/field_guides", body(project.id, "it"), { token: owner.token })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400]);
    expect(await db().fieldGuide.count({ where: { projectId: project.id } })).toBe(1);
  });

  it("rejects bad input with a 4xx naming the problem and creates nothing", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const links = { project: String(project.id) };
    const item = { title: "Zebra", content: "Stripes" };
    const cases: [string, object, number, RegExp][] = [
      [
        "item with an unknown key",
        { language: "en", items: [{ ...item, colour: "black" }], links },
        422,
        /items\.0: unknown key\(s\) 'colour'/,
      ],
      ["item without a title", { language: "en", items: [{ content: "x" }], links }, 422, /items\.0\.title/],
      [
        "item with a blank title",
        { language: "en", items: [{ title: "  ", content: "x" }], links },
        422,
        /items\.0\.title: can't be blank/,
      ],
      ["item without content", { language: "en", items: [item, { title: "Lion" }], links }, 422, /items\.1\.content/],
      ["content not a string", { language: "en", items: [{ ...item, content: 5 }], links }, 422, /items\.0\.content/],
      ["icon not a string", { language: "en", items: [{ ...item, icon: 789 }], links }, 422, /items\.0\.icon/],
      ["icon not an id", { language: "en", items: [{ ...item, icon: "zebra.png" }], links }, 422, /items\.0\.icon/],
      ["item not an object", { language: "en", items: ["Zebra"], links }, 422, /items\.0/],
      ["items not an array", { language: "en", items: { title: "x" }, links }, 422, /items/],
      ["no language", { items: [item], links }, 422, /language/],
      ["bad language", { language: "english!", items: [item], links }, 422, /language: must be a language code/],
      ["no links", { language: "en", items: [item] }, 422, /links/],
      ["unknown link", { language: "en", items: [item], links: { ...links, workflow: "1" } }, 422, /links: unknown key\(s\) 'workflow'/],
      ["malformed project id", { language: "en", items: [item], links: { project: "abc" } }, 422, /links\.project/],
      ["missing project", { language: "en", items: [item], links: { project: "999999999" } }, 404, /Could not find projects/],
    ];
    for (const [name, record, status, message] of cases) {
      const res = await api.post("/field_guides", { field_guides: record }, { token: owner.token });
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toMatch(message);
    }
    expect(await db().fieldGuide.count({ where: { projectId: project.id } })).toBe(0);
  });
});

describe("field guides: edit and destroy", () => {
  it("replaces items and changes language for those who may write both languages", async () => {
    const { project, token } = await projectWithPeople();
    const en = await createFieldGuide(project.id);
    const fr = await createFieldGuide(project.id, { language: "fr" });
    const items = [{ title: "Zèbre", content: "Rayures", icon: "42" }];
    // Translators edit the translation, not the primary-language guide, and cannot move a guide into it.
    expect((await put(fr.id, token("translator"), { items })).status).toBe(200);
    expect((await put(en.id, token("translator"), { items })).status).toBe(403);
    expect((await put(fr.id, token("translator"), { language: "en" })).status).toBe(403);
    expect((await put(fr.id, token("tester"), { items })).status).toBe(403);
    expect((await put(fr.id, token("translator"), { language: "fr-ca" })).body.field_guides[0]).toMatchObject({ language: "fr-ca", items });
    // A language another guide has is refused, and nothing changes.
    const before = (await api.get(`/field_guides/${fr.id}?language=fr-ca`)).body.field_guides[0];
    const clash = await put(fr.id, token("owner"), { language: "EN", items: [] });
    expect(clash.status).toBe(400);
    expect(clash.body.errors[0].message).toContain(`field_guides/${en.id}`);
    expect((await api.get(`/field_guides/${fr.id}`)).body.field_guides[0]).toEqual(before);
    // Editors change anything.
    const edited = await put(en.id, token("collaborator"), { items: [], language: "de" });
    expect(edited.status).toBe(200);
    expect(edited.body.field_guides[0]).toMatchObject({ items: [], language: "de" });
  });

  it("rejects bad edits with a 4xx naming the problem and changes nothing", async () => {
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const guide = await createFieldGuide(project.id);
    const before = (await api.get(`/field_guides/${guide.id}`)).body.field_guides[0];
    const cases: [string, object, RegExp][] = [
      ["item with an unknown key", { items: [{ title: "a", content: "b", image: "1" }] }, /items\.0: unknown key\(s\) 'image'/],
      ["item without content", { items: [{ title: "a" }] }, /items\.0\.content/],
      ["bad language", { language: "" }, /language/],
      ["project cannot move", { links: { project: "1" } }, /links: unknown key\(s\) 'project'/],
      ["read-only href", { href: "/x" }, /unknown key\(s\) 'href'/],
    ];
    for (const [name, record, message] of cases) {
      const res = await put(guide.id, owner.token, record);
      expect(res.status, name).toBe(422);
      expect(res.body.errors[0].message, name).toMatch(message);
    }
    expect((await api.get(`/field_guides/${guide.id}`)).body.field_guides[0]).toEqual(before);
  });

  it("destroys the guide with its attached images, leaving other records' media", async () => {
    const { project, token } = await projectWithPeople();
    const guide = await createFieldGuide(project.id, { language: "fr" });
    const other = await createFieldGuide(project.id);
    await attachImage("field_guides", guide.id);
    await attachImage("field_guides", guide.id);
    await attachImage("field_guides", other.id);
    const etag = (await api.get(`/field_guides/${guide.id}`)).headers.get("etag")!;
    for (const who of ["anonymous", "stranger", "tester"] as const) {
      expect((await api.delete(`/field_guides/${guide.id}`, { token: token(who), headers: { "if-match": etag } })).status, who).toBe(
        who === "anonymous" ? 401 : 403,
      );
    }
    expect((await api.delete(`/field_guides/${guide.id}`, { token: token("translator"), headers: { "if-match": etag } })).status).toBe(204);
    expect(await db().fieldGuide.findUnique({ where: { id: guide.id } })).toBeNull();
    expect(await db().medium.count({ where: { linkedType: "field_guides", linkedId: guide.id } })).toBe(0);
    expect(await db().medium.count({ where: { linkedType: "field_guides", linkedId: other.id } })).toBe(1);
  });
});
