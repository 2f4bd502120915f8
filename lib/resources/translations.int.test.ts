// /api/translations: the shared contract, the primary language kept from the record, who may write, and
// the established front end's own requests (GET /translations?translated_type=workflow&translated_id=&language=).
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api, call } from "@/test/http";
import { resourceContract } from "@/test/resource-contract";
import { createProject, createWorkflow, grantProjectRole, signedInUser } from "@/test/factories";

async function translated(opts: { private?: boolean } = {}) {
  const owner = await signedInUser();
  const project = await createProject(owner.user.id, { private: opts.private });
  const workflow = await createWorkflow(project.id, {
    tasks: { T0: { type: "single", question: "Is there a bird?", answers: [{ label: "Yes" }, { label: "No" }] } },
  });
  return { owner, project, workflow };
}
const frStrings = { "tasks.T0.question": "Y a-t-il un oiseau ?", "tasks.T0.answers.0.label": "Oui", "tasks.T0.answers.1.label": "Non" };

resourceContract({
  type: "translations",
  async setup() {
    const { owner, project, workflow } = await translated({ private: true });
    const [reader, stranger] = [await signedInUser(), await signedInUser()];
    await grantProjectRole(project.id, reader.user.id, ["scientist"]);
    const t = await db().translation.create({
      data: { translatedType: "workflow", translatedId: workflow.id, language: "fr", projectId: project.id, strings: frStrings },
    });
    return { id: t.id, writer: owner.token, reader: reader.token, stranger: stranger.token };
  },
  async seedMany(n) {
    const { owner, project, workflow } = await translated();
    for (let i = 0; i < n; i++)
      await db().translation.create({
        data: {
          translatedType: "workflow",
          translatedId: workflow.id,
          language: `x${String.fromCharCode(97 + i)}`,
          projectId: project.id,
          strings: {},
        },
      });
    return {
      query:
        `translated_type=workflow&translated_id=${workflow.id}` +
        `&language=${Array.from({ length: n }, (_, i) => `x${String.fromCharCode(97 + i)}`).join(",")}`,
      token: owner.token,
    };
  },
  async createRecord() {
    const { owner, workflow } = await translated();
    return {
      record: {
        translated_type: "workflow",
        translated_id: String(workflow.id),
        language: "de",
        strings: { "tasks.T0.question": "Gibt es einen Vogel?" },
      },
      token: owner.token,
    };
  },
  update: { strings: { "tasks.T0.question": "Y a-t-il des oiseaux ?" } },
  invalidUpdate: { strings: "nope" },
  async privateRecord() {
    const { owner, project, workflow } = await translated({ private: true });
    const t = await db().translation.create({
      data: { translatedType: "workflow", translatedId: workflow.id, language: "fr", projectId: project.id, strings: frStrings },
    });
    return { id: t.id, insider: owner.token, stranger: (await signedInUser()).token };
  },
  destroy: false,
  strangerEditStatus: 404,
  includes: [],
  sortable: ["language", "created_at"],
});

describe("translations", () => {
  it("the primary language is the record's own strings, kept in step and not writable here", async () => {
    const { owner, workflow } = await translated();
    const list = await api.get(`/translations?translated_type=workflow&translated_id=${workflow.id}&language=en`);
    expect(list.status).toBe(200);
    const primary = list.body.translations[0];
    expect(primary).toMatchObject({
      translated_type: "Workflow",
      translated_id: String(workflow.id),
      language: "en",
      links: { workflow: String(workflow.id) },
    });
    expect(primary.strings).toMatchObject({ "tasks.T0.question": "Is there a bird?", "tasks.T0.answers.0.label": "Yes" });
    // An edit of the workflow shows in its primary translation at the next read.
    await db().workflow.update({
      where: { id: workflow.id },
      data: { tasks: { T0: { type: "single", question: "Any birds?", answers: [{ label: "Yes" }, { label: "No" }] } } },
    });
    const again = await api.get(`/translations?translated_type=workflow&translated_id=${workflow.id}&language=en`);
    expect(again.body.translations[0].strings["tasks.T0.question"]).toBe("Any birds?");
    expect(again.body.translations[0].id).toBe(primary.id);
    const refused = await api.post(
      "/translations",
      { translations: { translated_type: "workflow", translated_id: String(workflow.id), language: "en", strings: {} } },
      { token: owner.token },
    );
    expect(refused.status).toBe(403);
    const etag = again.headers.get("etag") ?? (await api.get(`/translations/${primary.id}`, { token: owner.token })).headers.get("etag")!;
    expect(
      (
        await api.put(
          `/translations/${primary.id}`,
          { translations: { strings: {} } },
          { token: owner.token, headers: { "if-match": etag } },
        )
      ).status,
    ).toBe(403);
  });

  it("translators, owners and collaborators write other languages; volunteers cannot; query parameters as the clients send them", async () => {
    const { owner, project, workflow } = await translated();
    const [translator, volunteer] = [await signedInUser(), await signedInUser()];
    await grantProjectRole(project.id, translator.user.id, ["translator"]);
    const body = { translations: { language: "FR", strings: frStrings } };
    expect(
      (await call("POST", `/api/translations?translated_type=workflow&translated_id=${workflow.id}`, { body, token: volunteer.token }))
        .status,
    ).toBe(403);
    const created = await call("POST", `/api/translations?translated_type=Workflow&translated_id=${workflow.id}`, {
      body,
      token: translator.token,
    });
    expect(created.status).toBe(201);
    expect(created.body.translations[0]).toMatchObject({ language: "fr", strings: frStrings, translated_type: "Workflow" });
    expect(
      (await call("POST", `/api/translations?translated_type=workflow&translated_id=${workflow.id}`, { body, token: owner.token })).status,
    ).toBe(422); // one per language
    // The front end's read.
    const fr = await api.get(`/translations?translated_type=workflow&translated_id=${workflow.id}&language=fr`);
    expect(fr.body.translations.map((t: { language: string }) => t.language)).toEqual(["fr"]);
    const bad: [string, number][] = [
      [`/translations?translated_type=spaceship`, 422],
      [`/translations?colour=red`, 422],
      [`/translations?language=not a language`, 422],
    ];
    for (const [path, status] of bad) expect((await api.get(path)).status, path).toBe(status);
    const unknownRecord = await api.post(
      "/translations",
      { translations: { translated_type: "workflow", translated_id: "99999999", language: "fr", strings: {} } },
      { token: owner.token },
    );
    expect(unknownRecord.status).toBe(404);
  });

  it("a private project's translations are invisible to outsiders", async () => {
    const { project, workflow } = await translated({ private: true });
    await db().translation.create({
      data: { translatedType: "workflow", translatedId: workflow.id, language: "fr", projectId: project.id, strings: frStrings },
    });
    const outsider = await signedInUser();
    const res = await api.get(`/translations?translated_type=workflow&translated_id=${workflow.id}`, { token: outsider.token });
    expect(res.body.translations).toEqual([]);
    // Nothing synced for them either.
    expect(await db().translation.count({ where: { translatedId: workflow.id, translatedType: "workflow", language: "en" } })).toBe(0);
  });
});
