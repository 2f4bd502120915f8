import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { api, call } from "@/test/http";
import { createProject, createSubjectSet, createWorkflow, grantProjectRole, signedInUser } from "@/test/factories";
import { resourceContract } from "@/test/resource-contract";

async function preference(userId: number, projectId: number, data: { preferences?: object; settings?: object } = {}) {
  return db().projectPreference.create({ data: { userId, projectId, preferences: data.preferences ?? {}, settings: data.settings ?? {} } });
}

// The owning user reads; an admin may edit settings (the owning user may not: 403); others get 404.
resourceContract({
  type: "project_preferences",
  async setup() {
    const admin = await signedInUser({ admin: true });
    const volunteer = await signedInUser();
    const stranger = await signedInUser();
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const pref = await preference(volunteer.user.id, project.id, { settings: { workflow_id: "1" } });
    return { id: pref.id, writer: admin.token, reader: volunteer.token, stranger: stranger.token };
  },
  async seedMany(n) {
    const volunteer = await signedInUser();
    const owner = await signedInUser();
    for (let i = 0; i < n; i++) await preference(volunteer.user.id, (await createProject(owner.user.id)).id);
    return { query: `user_id=${volunteer.user.id}`, token: volunteer.token };
  },
  async createRecord() {
    const volunteer = await signedInUser();
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    return {
      record: { email_communication: true, preferences: { tutorial: true }, links: { project: String(project.id) } },
      token: volunteer.token,
    };
  },
  update: { settings: { workflow_id: null } },
  invalidUpdate: { preferences: "x" },
  async privateRecord() {
    const volunteer = await signedInUser();
    const stranger = await signedInUser();
    const project = await createProject((await signedInUser()).user.id);
    const pref = await preference(volunteer.user.id, project.id);
    return { id: pref.id, insider: volunteer.token, stranger: stranger.token };
  },
  strangerEditStatus: 404,
  includes: ["project", "user"],
  sortable: ["created_at", "updated_at"],
});

describe("project preferences", () => {
  it("are visible only to their user (and admins), also at /project_preferences without /api", async () => {
    const volunteer = await signedInUser();
    const other = await signedInUser();
    const admin = await signedInUser({ admin: true });
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const mine = await preference(volunteer.user.id, project.id, { preferences: { a: 1 } });
    const theirs = await preference(other.user.id, project.id);
    const list = await api.get(`/project_preferences?project_id=${project.id}`, { token: volunteer.token });
    expect(list.body.project_preferences.map((p: any) => p.id)).toEqual([String(mine.id)]);
    expect((await api.get(`/project_preferences?user_id=${other.user.id}`, { token: volunteer.token })).body.project_preferences).toEqual(
      [],
    );
    expect((await api.get(`/project_preferences/${theirs.id}`, { token: volunteer.token })).status).toBe(404);
    // The project's owner does not see volunteers' preferences either.
    expect((await api.get(`/project_preferences/${mine.id}`, { token: owner.token })).status).toBe(404);
    expect((await api.get(`/project_preferences?project_id=${project.id}`, { token: owner.token })).body.project_preferences).toEqual([]);
    expect((await api.get(`/project_preferences?project_id=${project.id}`)).body.project_preferences).toEqual([]);
    expect((await api.get(`/project_preferences?project_id=${project.id}`, { token: admin.token })).body.project_preferences).toHaveLength(
      2,
    );
    const bare = await call("GET", `/project_preferences?project_id=${project.id}`, { token: volunteer.token });
    expect(bare.status).toBe(200);
    expect(bare.body.project_preferences[0]).toMatchObject({
      id: String(mine.id),
      preferences: { a: 1 },
      email_communication: false,
      settings: {},
      activity_count: 0,
      links: { user: String(volunteer.user.id), project: String(project.id) },
    });
    const shown = await api.get(`/project_preferences/${mine.id}?include=project,user`, { token: volunteer.token });
    expect(shown.body.linked.projects[0].id).toBe(String(project.id));
    expect(shown.body.linked.users[0].id).toBe(String(volunteer.user.id));
  });

  it("creates one per user and project, for the current user, on a visible project", async () => {
    const volunteer = await signedInUser();
    const other = await signedInUser();
    const owner = await signedInUser();
    const project = await createProject(owner.user.id);
    const secret = await createProject(owner.user.id, { private: true });
    const body = (projectId: number, extra: object = {}) => ({ project_preferences: { links: { project: String(projectId) }, ...extra } });
    const created = await api.post("/project_preferences", body(project.id, { preferences: { x: "y" } }), { token: volunteer.token });
    expect(created.status).toBe(201);
    expect(created.body.project_preferences[0]).toMatchObject({
      preferences: { x: "y" },
      email_communication: false,
      links: { user: String(volunteer.user.id) },
    });
    const cases: [string, Promise<any>, number][] = [
      ["duplicate", api.post("/project_preferences", body(project.id), { token: volunteer.token }), 400],
      ["private project", api.post("/project_preferences", body(secret.id), { token: volunteer.token }), 404],
      ["missing project", api.post("/project_preferences", { project_preferences: { preferences: {} } }, { token: volunteer.token }), 422],
      [
        "another user",
        api.post("/project_preferences", body(project.id, { links: { project: String(project.id), user: String(other.user.id) } }), {
          token: other.token,
        }),
        201,
      ],
      [
        "someone else as user",
        api.post(
          "/project_preferences",
          { project_preferences: { links: { project: String(secret.id), user: String(volunteer.user.id) } } },
          { token: owner.token },
        ),
        422,
      ],
      ["preferences not a hash", api.post("/project_preferences", body(project.id, { preferences: [1] }), { token: owner.token }), 422],
      [
        "settings on create",
        api.post("/project_preferences", body(project.id, { settings: { workflow_id: "1" } }), { token: owner.token }),
        422,
      ],
    ];
    for (const [name, p, status] of cases) {
      const res = await p;
      expect(res.status, name).toBe(status);
      if (status >= 400) expect(res.body.errors[0].message, name).toBeTruthy();
    }
    expect(await db().projectPreference.count({ where: { projectId: project.id } })).toBe(2);
    expect(await db().projectPreference.count({ where: { projectId: secret.id } })).toBe(0);
  });

  it("lets the user edit preferences (full hash) and email; project owners edit only settings.workflow_id", async () => {
    const volunteer = await signedInUser();
    const owner = await signedInUser();
    const collaborator = await signedInUser();
    const tester = await signedInUser();
    const project = await createProject(owner.user.id);
    await grantProjectRole(project.id, collaborator.user.id, ["collaborator"]);
    await grantProjectRole(project.id, tester.user.id, ["tester"]);
    const workflow = await createWorkflow(project.id);
    const foreignWorkflow = await createWorkflow((await createProject(owner.user.id)).id);
    const pref = await preference(volunteer.user.id, project.id, { preferences: { old: true } });
    const etag = async () => (await api.get(`/project_preferences/${pref.id}`, { token: volunteer.token })).headers.get("etag")!;
    const put = (token: string, record: object, tag?: string) =>
      etag().then((e) =>
        api.put(`/project_preferences/${pref.id}`, { project_preferences: record }, { token, headers: { "if-match": tag ?? e } }),
      );

    const edited = await put(volunteer.token, { preferences: { new: 1 }, email_communication: true });
    expect(edited.status).toBe(200);
    expect(edited.body.project_preferences[0]).toMatchObject({ preferences: { new: 1 }, email_communication: true });

    const setByOwner = await put(owner.token, { settings: { workflow_id: String(workflow.id) } });
    expect(setByOwner.status).toBe(200);
    expect(setByOwner.body.project_preferences[0].settings).toEqual({ workflow_id: String(workflow.id) });
    expect((await put(collaborator.token, { settings: { workflow_id: workflow.id } })).status).toBe(200);

    const before = await db().projectPreference.findUniqueOrThrow({ where: { id: pref.id } });
    const refused: [string, string, object, number][] = [
      ["owner editing preferences", owner.token, { preferences: { hijack: 1 } }, 403],
      ["user editing own settings", volunteer.token, { settings: { workflow_id: String(workflow.id) } }, 403],
      ["tester", tester.token, { settings: { workflow_id: String(workflow.id) } }, 404],
      ["unknown settings key", owner.token, { settings: { workflow_id: String(workflow.id), designator: {} } }, 422],
      ["another project's workflow", owner.token, { settings: { workflow_id: String(foreignWorkflow.id) } }, 422],
      ["activity_count is read-only", volunteer.token, { activity_count: 3 }, 422],
    ];
    for (const [name, token, record, status] of refused) {
      const res = await put(token, record);
      expect(res.status, name).toBe(status);
      expect(res.body.errors[0].message, name).toBeTruthy();
    }
    expect(await db().projectPreference.findUniqueOrThrow({ where: { id: pref.id } })).toEqual(before);
    // The owner saw the record in the answer to its edit, but still cannot read it.
    expect((await api.get(`/project_preferences/${pref.id}`, { token: owner.token })).status).toBe(404);
  });

  it("update_settings sets designator chances (creating the preference) and the queue follows them", async () => {
    const volunteer = await signedInUser();
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const project = await createProject(owner.user.id);
    const workflow = await createWorkflow(project.id, { configuration: {} });
    const { set: general } = await createSubjectSet(project.id, 3, { workflowIds: [workflow.id] });
    const { set: expert } = await createSubjectSet(project.id, 3, { workflowIds: [workflow.id] });
    await db().workflow.update({ where: { id: workflow.id }, data: { configuration: { subject_set_chances: { [expert.id]: 0 } } } });
    const chances = { [workflow.id]: { [expert.id]: 1, [general.id]: 0 } };
    const body = {
      project_preferences: {
        user_id: String(volunteer.user.id),
        project_id: String(project.id),
        designator: { subject_set_chances: chances },
      },
    };

    const res = await api.post("/project_preferences/update_settings", body, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.project_preferences[0].settings).toEqual({ designator: { subject_set_chances: chances } });
    const stored = await db().projectPreference.findUniqueOrThrow({
      where: { userId_projectId: { userId: volunteer.user.id, projectId: project.id } },
    });
    expect(stored.settings).toEqual({ designator: { subject_set_chances: chances } });

    const queued = await api.get(`/subjects/queued?workflow_id=${workflow.id}`, { token: volunteer.token });
    const expertIds = (await db().setMemberSubject.findMany({ where: { subjectSetId: expert.id } })).map((m) => String(m.subjectId));
    expect(queued.body.subjects.map((s: any) => s.id).sort()).toEqual(expertIds.sort());

    // The documented path with ids in the query: settings.workflow_id, merged with the designator.
    const byQuery = await api.post(
      `/project_preferencess?user_id=${volunteer.user.id}&project_id=${project.id}`,
      { project_preferences: { settings: { workflow_id: workflow.id } } },
      { token: owner.token },
    );
    expect(byQuery.status).toBe(200);
    expect(byQuery.body.project_preferences[0].settings).toEqual({
      workflow_id: String(workflow.id),
      designator: { subject_set_chances: chances },
    });

    // A volunteer may set their own chances, never someone else's, nor their workflow_id.
    const own = {
      project_preferences: {
        user_id: volunteer.user.id,
        project_id: project.id,
        designator: { subject_set_chances: { [workflow.id]: { [general.id]: 2 } } },
      },
    };
    expect((await api.post("/project_preferences/update_settings", own, { token: volunteer.token })).status).toBe(200);
    const after = await db().projectPreference.findUniqueOrThrow({ where: { id: stored.id } });
    const cases: [string, Promise<any>, number][] = [
      ["someone else's", api.post("/project_preferences/update_settings", own, { token: stranger.token }), 403],
      [
        "own workflow_id",
        api.post(
          "/project_preferences/update_settings",
          { project_preferences: { user_id: volunteer.user.id, project_id: project.id, settings: { workflow_id: workflow.id } } },
          { token: volunteer.token },
        ),
        403,
      ],
      ["anonymous", api.post("/project_preferences/update_settings", own), 401],
      [
        "unknown settings key",
        api.post(
          "/project_preferences/update_settings",
          { project_preferences: { user_id: volunteer.user.id, project_id: project.id, settings: { color: "red" } } },
          { token: owner.token },
        ),
        422,
      ],
      [
        "negative chance",
        api.post(
          "/project_preferences/update_settings",
          {
            project_preferences: {
              user_id: volunteer.user.id,
              project_id: project.id,
              designator: { subject_set_chances: { [workflow.id]: { [general.id]: -1 } } },
            },
          },
          { token: owner.token },
        ),
        422,
      ],
      [
        "foreign set",
        api.post(
          "/project_preferences/update_settings",
          {
            project_preferences: {
              user_id: volunteer.user.id,
              project_id: project.id,
              designator: { subject_set_chances: { [workflow.id]: { "999999": 1 } } },
            },
          },
          { token: owner.token },
        ),
        422,
      ],
      [
        "no user id",
        api.post(
          "/project_preferences/update_settings",
          { project_preferences: { project_id: project.id, designator: { subject_set_chances: {} } } },
          { token: owner.token },
        ),
        422,
      ],
      ["ids disagree", api.post(`/project_preferences/update_settings?user_id=${owner.user.id}`, own, { token: owner.token }), 422],
      [
        "nothing to set",
        api.post(
          "/project_preferences/update_settings",
          { project_preferences: { user_id: volunteer.user.id, project_id: project.id } },
          { token: owner.token },
        ),
        422,
      ],
      [
        "unknown user",
        api.post(
          "/project_preferences/update_settings",
          { project_preferences: { user_id: 999999999, project_id: project.id, settings: { workflow_id: null } } },
          { token: owner.token },
        ),
        422,
      ],
    ];
    for (const [name, p, status] of cases) {
      const r = await p;
      expect(r.status, name).toBe(status);
      expect(r.body.errors[0].message, name).toBeTruthy();
    }
    expect(await db().projectPreference.findUniqueOrThrow({ where: { id: stored.id } })).toEqual(after);
    expect((after.settings as any).designator.subject_set_chances[workflow.id]).toEqual({ [general.id]: 2 });
    expect(await db().projectPreference.count({ where: { userId: 999999999 } })).toBe(0);
  });

  it("update_settings on a private project is 404 to those who cannot see it", async () => {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const project = await createProject(owner.user.id, { private: true });
    const res = await api.post(
      "/project_preferences/update_settings",
      { project_preferences: { user_id: stranger.user.id, project_id: project.id, designator: { subject_set_chances: {} } } },
      { token: stranger.token },
    );
    expect(res.status).toBe(404);
    expect(await db().projectPreference.count({ where: { projectId: project.id } })).toBe(0);
  });
});
