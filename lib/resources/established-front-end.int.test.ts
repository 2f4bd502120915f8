// Requests the established front end (front-end-monorepo: app-project, lib-classifier) sends, replayed
// as it sends them, so these keep working without running it.
import { describe, expect, it } from "vitest";
import { api, call } from "@/test/http";
import { classifiableProject, classificationBody, grantProjectRole, signedInUser } from "@/test/factories";

const JSONAPI = "application/vnd.api+json; version=1";

describe("app-project", () => {
  it("'Your recent classifications': recents with include=subject answer the subjects under linked.subjects", async () => {
    const { project, workflow, subjects } = await classifiableProject(5);
    const v = await signedInUser();
    for (const s of subjects) await api.post("/classifications", classificationBody(workflow, [s.id]), { token: v.token });
    const res = await call("GET", `/api/users/${v.user.id}/recents?include=subject&page_size=4&project_id=${project.id}&sort=-created_at`, {
      token: v.token,
      accept: JSONAPI,
    });
    expect(res.status).toBe(200);
    const onPage = res.body.recents.map((r: { links: { subject: string } }) => r.links.subject);
    expect(onPage).toEqual(
      subjects
        .slice(1)
        .reverse()
        .map((s) => String(s.id)),
    );
    expect(res.body.linked.subjects.map((s: { id: string }) => s.id).sort()).toEqual([...onPage].sort());
    expect(res.body.linked.subjects[0]).toMatchObject({ locations: expect.any(Array), links: { project: String(project.id) } });
    // Without include, nothing linked; an unknown include is refused.
    expect(
      (await call("GET", `/api/users/${v.user.id}/recents?page_size=4`, { token: v.token, accept: JSONAPI })).body.linked,
    ).toBeUndefined();
    expect((await call("GET", `/api/users/${v.user.id}/recents?include=user`, { token: v.token, accept: JSONAPI })).status).toBe(422);
  });

  it("every project page asks for the incomplete workflows: complete=false|true as completeness below or at 1", async () => {
    const { project, workflow, subjects } = await classifiableProject(2, {
      retirement: { criteria: "classification_count", options: { count: 1 } },
    });
    const { workflow: empty } = await classifiableProject(0);
    const v = await signedInUser();
    const ids = `${workflow.id},${empty.id}`;
    const list = async (complete: string) =>
      (await call("GET", `/api/workflows?complete=${complete}&id=${ids}`, { accept: JSONAPI })).body.workflows.map(
        (w: { id: string; completeness: number }) => [w.id, w.completeness],
      );
    expect(await list("false")).toEqual([
      [String(workflow.id), 0],
      [String(empty.id), 0],
    ]);
    expect(await list("true")).toEqual([]);
    for (const s of subjects) await api.post("/classifications", classificationBody(workflow, [s.id]), { token: v.token });
    expect(await list("false")).toEqual([[String(empty.id), 0]]);
    expect(await list("true")).toEqual([[String(workflow.id), 1]]);
    expect((await call("GET", `/api/workflows?complete=maybe&project_id=${project.id}`, { accept: JSONAPI })).status).toBe(422);
  });

  it("workflows with fields (and complete, http_cache) answer a sparse fieldset: the listed attributes, id, href and links", async () => {
    const { workflow } = await classifiableProject(1);
    const { workflow: other } = await classifiableProject(1);
    const res = await call(
      "GET",
      `/api/workflows?fields=completeness,configuration,display_name,grouped&id=${workflow.id},${other.id}&http_cache=true`,
      { accept: JSONAPI },
    );
    expect(res.status).toBe(200);
    expect(res.body.workflows).toHaveLength(2);
    for (const w of res.body.workflows)
      expect(Object.keys(w).sort()).toEqual(["completeness", "configuration", "display_name", "grouped", "href", "id", "links"]);
    const withComplete = await call("GET", `/api/workflows?complete=false&fields=display_name,completeness&id=${workflow.id},${other.id}`, {
      accept: JSONAPI,
    });
    expect(withComplete.body.workflows.map((w: { id: string }) => w.id)).toEqual([String(workflow.id), String(other.id)]);
    // The show action takes it too; without fields the whole record.
    const one = await call("GET", `/api/workflows/${workflow.id}?fields=display_name`, { accept: JSONAPI });
    expect(Object.keys(one.body.workflows[0]).sort()).toEqual(["display_name", "href", "id", "links"]);
    expect(Object.keys((await call("GET", `/api/workflows/${workflow.id}`, { accept: JSONAPI })).body.workflows[0])).toContain("tasks");
  });

  it("translations with fields=strings,translated_id answer whole records (the established platform ignores fields there)", async () => {
    const { project, workflow } = await classifiableProject(1);
    const { db } = await import("@/lib/db");
    await db().translation.create({
      data: {
        translatedType: "workflow",
        translatedId: workflow.id,
        language: "fr",
        projectId: project.id,
        strings: { display_name: "Flux" },
      },
    });
    const res = await call(
      "GET",
      `/api/translations?translated_type=workflow&translated_id=${workflow.id}&language=fr&fields=strings,translated_id`,
      { accept: JSONAPI },
    );
    expect(res.status).toBe(200);
    expect(res.body.translations[0]).toMatchObject({
      strings: { display_name: "Flux" },
      translated_id: String(workflow.id),
      language: "fr",
    });
  });

  it("every filter also answers to its plural (ids, project_ids, subject_set_ids), as the established platform's", async () => {
    const { project, workflow, set } = await classifiableProject(1);
    const { workflow: other } = await classifiableProject(1);
    const ids = async (q: string) =>
      (await call("GET", `/api/workflows?${q}`, { accept: JSONAPI })).body.workflows.map((w: { id: string }) => w.id);
    expect(await ids(`ids=${workflow.id},${other.id}`)).toEqual([String(workflow.id), String(other.id)]);
    expect(await ids(`project_ids=${project.id}`)).toEqual([String(workflow.id)]);
    expect(await ids(`subject_set_ids=${set.id}`)).toEqual([String(workflow.id)]);
    // A misspelt filter is still refused, not answered with everything.
    expect((await call("GET", `/api/workflows?projct_id=${project.id}`, { accept: JSONAPI })).status).toBe(422);
  });

  it("the Team page: a public project's roles, read anonymously", async () => {
    const { project, owner } = await classifiableProject(1);
    const scientist = await signedInUser();
    await grantProjectRole(project.id, scientist.user.id, ["scientist"]);
    const res = await call("GET", `/api/project_roles?project_id=${project.id}&page_size=100`, { accept: JSONAPI });
    expect(res.status).toBe(200);
    const byUser = Object.fromEntries(
      res.body.project_roles.map((r: { roles: string[]; links: { owner: { id: string } } }) => [r.links.owner.id, r.roles]),
    );
    expect(byUser).toEqual({ [String(owner.user.id)]: ["owner"], [String(scientist.user.id)]: ["scientist"] });
  });
});

describe("lib-user", () => {
  it("the volunteer's projects: project_preferences with non_null_activity_count=true are those with classifications", async () => {
    const { project, workflow, subjects } = await classifiableProject(1);
    const { project: idle } = await classifiableProject(0);
    const v = await signedInUser();
    await api.post("/classifications", classificationBody(workflow, [subjects[0].id]), { token: v.token });
    // The counters' fold (a background job) makes the classifying volunteer's preference with its activity count.
    const { foldClassificationCounts } = await import("@/lib/domain/fold-classification-counts");
    await foldClassificationCounts();
    const { db } = await import("@/lib/db");
    await db().projectPreference.create({ data: { userId: v.user.id, projectId: idle.id } });
    const list = async (extra: string) =>
      (
        await call("GET", `/api/project_preferences?sort=-updated_at&user_id=${v.user.id}&page=1&page_size=20${extra}`, {
          token: v.token,
          accept: JSONAPI,
        })
      ).body.project_preferences.map((p: { links: { project: string } }) => p.links.project);
    expect((await list("")).sort()).toEqual([String(project.id), String(idle.id)].sort());
    expect(await list("&non_null_activity_count=true")).toEqual([String(project.id)]);
  });
});

describe("other list parameters of the established platform", () => {
  it("projects: languages (every one, primary or translated) and current_user_roles (the caller's projects)", async () => {
    const { db } = await import("@/lib/db");
    const { project: english, owner } = await classifiableProject(0);
    const { project: french } = await classifiableProject(0);
    await db().project.update({ where: { id: french.id }, data: { primaryLanguage: "fr", availableLanguages: ["en", "de"] } });
    const ids = async (q: string, token?: string) =>
      (await call("GET", `/api/projects?id=${english.id},${french.id}&${q}`, { token, accept: JSONAPI })).body.projects
        .map((p: { id: string }) => Number(p.id))
        .sort();
    expect(await ids("languages=en")).toEqual([english.id, french.id].sort());
    expect(await ids("languages=fr")).toEqual([french.id]);
    expect(await ids("languages=EN,de")).toEqual([french.id]);
    expect(await ids("languages=es")).toEqual([]);
    const collaborator = await signedInUser();
    await grantProjectRole(french.id, collaborator.user.id, ["collaborator"]);
    expect(await ids("current_user_roles=owner,collaborator", owner.token)).toEqual([english.id]);
    expect(await ids("current_user_roles=collaborator", collaborator.token)).toEqual([french.id]);
    expect(await ids("current_user_roles=owner", collaborator.token)).toEqual([]);
    expect(await ids("current_user_roles=owner")).toEqual([]);
  });

  it("collections: min_subjects", async () => {
    const { createCollection } = await import("@/test/factories-collections");
    const { subjects, owner } = await classifiableProject(3);
    const empty = await createCollection({ userId: owner.user.id });
    const one = await createCollection({ userId: owner.user.id }, { subjectIds: [subjects[0].id] });
    const three = await createCollection({ userId: owner.user.id }, { subjectIds: subjects.map((s) => s.id) });
    const ids = async (q: string) =>
      (
        await call("GET", `/api/collections?id=${empty.id},${one.id},${three.id}&${q}`, { token: owner.token, accept: JSONAPI })
      ).body.collections
        .map((c: { id: string }) => Number(c.id))
        .sort((a: number, b: number) => a - b);
    expect(await ids("min_subjects=0")).toEqual([empty.id, one.id, three.id]);
    expect(await ids("min_subjects=1")).toEqual([one.id, three.id]);
    expect(await ids("min_subjects=2")).toEqual([three.id]);
    expect((await call("GET", `/api/collections?min_subjects=-1`, { accept: JSONAPI })).status).toBe(422);
  });
});
