// The official Python client's (panoptes_client) own requests, replayed with its headers, for what a
// research team scripts: uploading subjects (Subject.save with a local file, then the PUT of the file to
// the signed URL with the client's headers), SubjectSet.add, and exports (Project.generate_export,
// wait_export polling describe_export's media metadata.state, get_export downloading media src).
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { GET as getFile, PUT as putFile } from "@/app/uploads/[...key]/route";
import { drainJobs } from "@/lib/jobs/worker";
import { api, call } from "@/test/http";
import { classifiableProject, classificationBody, signedInUser } from "@/test/factories";

const py = (token: string, body?: unknown) => ({
  token,
  body,
  headers: { "content-type": "application/json", accept: "application/vnd.api+json; version=1" },
});

async function file(method: "GET" | "PUT", url: string, body?: Buffer, headers: Record<string, string> = {}) {
  const u = new URL(url);
  const req = new Request(new URL(u.pathname + u.search, "http://quorum.test"), { method, body: body as BodyInit | undefined, headers });
  const res = await (method === "GET" ? getFile : putFile)(req, {
    params: Promise.resolve({ key: u.pathname.replace(/^\/uploads\//, "").split("/") }),
  });
  return { status: res.status, text: await res.text() };
}

describe("the Python client's calls", () => {
  it("Subject.save with a local file, its upload, and SubjectSet.add", async () => {
    const { owner, project } = await classifiableProject(0);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
    const saved = await call(
      "POST",
      "/api/subjects",
      py(owner.token, {
        subjects: { locations: ["image/png"], metadata: { "#secret": "x", name: "owl" }, links: { project: String(project.id) } },
      }),
    );
    expect(saved.status).toBe(201);
    const [location] = saved.body.subjects[0].locations as Record<string, string>[];
    const [mime, url] = Object.entries(location)[0];
    expect(mime).toBe("image/png");
    // _upload_media: requests.put(url, headers={'Content-Type': media_type, 'x-ms-blob-type': 'BlockBlob'}, data=...)
    expect((await file("PUT", url, png, { "content-type": "image/png", "x-ms-blob-type": "BlockBlob" })).status).toBe(200);
    const shown = await call("GET", `/api/subjects/${saved.body.subjects[0].id}`, py(owner.token));
    const served = Object.values(shown.body.subjects[0].locations[0])[0] as string;
    expect((await file("GET", served)).status).toBe(200);
    // SubjectSet(...).save(); subject_set.add([subject])
    const set = await call(
      "POST",
      "/api/subject_sets",
      py(owner.token, { subject_sets: { display_name: "Owls", links: { project: String(project.id) } } }),
    );
    expect(
      (
        await call(
          "POST",
          `/api/subject_sets/${set.body.subject_sets[0].id}/links/subjects`,
          py(owner.token, { subjects: [saved.body.subjects[0].id] }),
        )
      ).status,
    ).toBe(200);
    const members = await call("GET", `/api/set_member_subjects?subject_set_id=${set.body.subject_sets[0].id}`, py(owner.token));
    expect(members.body.set_member_subjects.map((m: { links: { subject: string } }) => m.links.subject)).toEqual([
      saved.body.subjects[0].id,
    ]);
  });

  it("generate_export, wait_export and get_export of classifications and workflows", async () => {
    const { owner, project, workflow, subjects } = await classifiableProject(2);
    const volunteer = await signedInUser();
    for (const s of subjects)
      expect((await api.post("/classifications", classificationBody(workflow, [s.id]), { token: volunteer.token })).status).toBe(201);
    for (const [kind, firstColumn, rows] of [
      ["classifications", "classification_id", 2],
      ["workflows", "workflow_id", 1],
    ] as const) {
      const path = `/api/projects/${project.id}/${kind}_export`;
      // generate_export: http_post(path, json={"media": {"content_type": "text/csv"}})[0]
      const started = await call("POST", path, py(owner.token, { media: { content_type: "text/csv" } }));
      expect(started.status).toBe(201);
      expect(started.body.media[0]).toMatchObject({
        content_type: "text/csv",
        media_type: `project_${kind}_export`,
        metadata: { state: "creating" },
        src: null,
      });
      // wait_export: describe_export until media[0].metadata.state is ready or finished
      await drainJobs();
      const described = await call("GET", path, py(owner.token));
      expect(described.status).toBe(200);
      expect(described.body.media[0].metadata.state).toBe("ready");
      expect(described.body.media[0].id).toBe(started.body.media[0].id);
      // get_export: requests.get(media[0].src)
      const csv = await file("GET", described.body.media[0].src);
      expect(csv.status).toBe(200);
      const records = parse(csv.text, { columns: true }) as Record<string, string>[];
      expect(csv.text.split("\n")[0].split(",")[0]).toBe(firstColumn);
      expect(records).toHaveLength(rows);
    }
    expect(
      (
        await call(
          "POST",
          `/api/projects/${project.id}/classifications_export`,
          py(owner.token, { media: { content_type: "application/zip" } }),
        )
      ).status,
    ).toBe(422);
    expect(
      (await call("POST", `/api/projects/${project.id}/workflow_contents_export`, py(owner.token, { media: { content_type: "text/csv" } })))
        .status,
    ).toBe(410);
  });
});

describe("GET /api/users/<id>/recents", () => {
  it("lists the volunteer's recently classified subjects, newest first, by project or workflow; only to them and admins", async () => {
    const { project, workflow, subjects } = await classifiableProject(3);
    const { workflow: otherWorkflow, subjects: others } = await classifiableProject(1);
    const [v, stranger, admin] = [await signedInUser(), await signedInUser(), await signedInUser({ admin: true })];
    for (const s of subjects) await api.post("/classifications", classificationBody(workflow, [s.id]), { token: v.token });
    await api.post("/classifications", classificationBody(otherWorkflow, [others[0].id]), { token: v.token });
    const mine = await call("GET", `/api/users/${v.user.id}/recents?project_id=${project.id}&page_size=2`, py(v.token));
    expect(mine.status).toBe(200);
    expect(mine.body.recents.map((r: { links: { subject: string } }) => r.links.subject)).toEqual([
      String(subjects[2].id),
      String(subjects[1].id),
    ]);
    expect(mine.body.recents[0]).toMatchObject({
      locations: [{ "image/png": expect.any(String) }],
      links: { project: String(project.id), workflow: String(workflow.id) },
    });
    expect(mine.body.meta.recents).toMatchObject({ count: 3, page_count: 2, next_page: 2 });
    const all = await call("GET", `/api/users/${v.user.id}/recents`, py(v.token));
    expect(all.body.recents).toHaveLength(4);
    expect((await call("GET", `/api/users/${v.user.id}/recents`, py(admin.token))).body.recents).toHaveLength(4);
    expect((await call("GET", `/api/users/${v.user.id}/recents`, py(stranger.token))).status).toBe(404);
    expect((await api.get(`/users/${v.user.id}/recents`)).status).toBe(401);
    expect((await call("GET", `/api/users/${v.user.id}/recents?colour=red`, py(v.token))).status).toBe(422);
  });
});

describe("workflow versions", () => {
  it("records each version of a workflow's content; Workflow.versions lists them; private projects' are hidden", async () => {
    const owner = await signedInUser();
    const { db } = await import("@/lib/db");
    const project = await db().project.create({
      data: { ownerId: owner.user.id, displayName: `Versions ${Date.now()}`, slug: `v/${Date.now()}`, private: true },
    });
    await db().projectRole.create({ data: { projectId: project.id, userId: owner.user.id, roles: ["owner"] } });
    const tasks = { T0: { type: "single", question: "Bird?", answers: [{ label: "Yes" }, { label: "No" }] } };
    const created = await call(
      "POST",
      "/api/workflows",
      py(owner.token, { workflows: { display_name: "W", tasks, first_task: "T0", links: { project: String(project.id) } } }),
    );
    expect(created.status).toBe(201);
    const id = created.body.workflows[0].id;
    const put = async (changes: object) => {
      const etag = (await call("GET", `/api/workflows/${id}`, py(owner.token))).headers.get("etag")!;
      const res = await call("PUT", `/api/workflows/${id}`, {
        ...py(owner.token, { workflows: changes }),
        headers: { "content-type": "application/json", "if-match": etag },
      });
      expect(res.status).toBe(200);
      return res.body.workflows[0].version;
    };
    const v2 = await put({ tasks: { T0: { ...tasks.T0, question: "A bird?" } } });
    expect(v2).toBe("1.2"); // text: minor
    const v3 = await put({ tasks: { T0: { ...tasks.T0, answers: [{ label: "Yes" }, { label: "No" }, { label: "Maybe" }] } } });
    expect(v3.split(".")[0]).toBe("2"); // structure: major (the minor counter runs on, as the established platform's)
    const versions = await call("GET", `/api/workflows/${id}/versions?sort=id`, py(owner.token));
    expect(versions.status).toBe(200);
    expect(
      versions.body.workflow_versions.map(
        (v: { major_number: number; minor_number: number; tasks: { T0: { question: string; answers: unknown[] } } }) => [
          v.major_number,
          v.minor_number,
          v.tasks.T0.question,
          v.tasks.T0.answers.length,
        ],
      ),
    ).toEqual([
      [1, 1, "Bird?", 2],
      [1, 2, "A bird?", 2],
      [2, Number(v3.split(".")[1]), "Bird?", 3],
    ]);
    const same = await call("GET", `/api/workflow_versions?workflow_id=${id}&sort=id`, py(owner.token));
    expect(same.body.workflow_versions.map((v: { id: string }) => v.id)).toEqual(
      versions.body.workflow_versions.map((v: { id: string }) => v.id),
    );
    const stranger = await signedInUser();
    expect((await call("GET", `/api/workflow_versions?workflow_id=${id}`, py(stranger.token))).body.workflow_versions).toEqual([]);
    expect((await call("GET", `/api/workflow_versions/${versions.body.workflow_versions[0].id}`, py(stranger.token))).status).toBe(404);
    expect((await call("GET", `/api/workflows/abc/versions`, py(owner.token))).status).toBe(422);
  });
});

describe("ProjectPreferences.save_settings and fetch_settings", () => {
  it("the project's editors write and read volunteers' settings; the volunteers' own preferences stay hidden", async () => {
    const { owner, project, workflow } = await classifiableProject(0);
    const [v1, v2] = [await signedInUser(), await signedInUser()];
    await api.post(
      "/project_preferences",
      { project_preferences: { preferences: { secret: "mine" }, links: { project: String(project.id) } } },
      { token: v1.token },
    );
    // save_settings: POST project_preferences/update_settings
    for (const v of [v1, v2]) {
      const saved = await call(
        "POST",
        "/api/project_preferences/update_settings",
        py(owner.token, {
          project_preferences: {
            user_id: String(v.user.id),
            project_id: String(project.id),
            settings: { workflow_id: String(workflow.id) },
          },
        }),
      );
      expect(saved.status).toBeLessThan(300);
    }
    // fetch_settings: GET project_preferences/read_settings?project_id=[&user_id=]
    const all = await call("GET", `/api/project_preferences/read_settings?project_id=${project.id}`, py(owner.token));
    expect(all.status).toBe(200);
    expect(all.body.project_preferences.map((p: { links: { user: string }; settings: object }) => [p.links.user, p.settings])).toEqual([
      [String(v1.user.id), { workflow_id: String(workflow.id) }],
      [String(v2.user.id), { workflow_id: String(workflow.id) }],
    ]);
    expect(JSON.stringify(all.body)).not.toContain("mine");
    const one = await call("GET", `/api/project_preferences/read_settings?project_id=${project.id}&user_id=${v2.user.id}`, py(owner.token));
    expect(one.body.project_preferences.map((p: { links: { user: string } }) => p.links.user)).toEqual([String(v2.user.id)]);
    expect((await call("GET", `/api/project_preferences/read_settings?project_id=${project.id}`, py(v1.token))).status).toBe(403);
    expect((await call("GET", `/api/project_preferences/read_settings`, py(owner.token))).status).toBe(422);
    expect((await api.get(`/project_preferences/read_settings?project_id=${project.id}`)).status).toBe(401);
  });
});

describe("Project.copy", () => {
  it("copies a template project for the caller with its workflows, tutorials, field guide, pages and translations", async () => {
    const { db } = await import("@/lib/db");
    const { owner, project, workflow } = await classifiableProject(2);
    await db().project.update({
      where: { id: project.id },
      data: { configuration: { template: true }, description: "Template", tags: ["birds"] },
    });
    const tutorial = await db().tutorial.create({ data: { projectId: project.id, displayName: "How", steps: [{ content: "Look" }] } });
    await db().workflowTutorial.create({ data: { workflowId: workflow.id, tutorialId: tutorial.id } });
    await db().fieldGuide.create({ data: { projectId: project.id, items: [{ title: "Owl", content: "Hoots" }] } });
    await db().projectPage.create({ data: { projectId: project.id, urlKey: "science_case", title: "Research", content: "Why" } });
    await db().translation.create({
      data: {
        translatedType: "workflow",
        translatedId: workflow.id,
        language: "fr",
        projectId: project.id,
        strings: { display_name: "Flux" },
      },
    });
    const other = await signedInUser();
    // Project(id).copy("Uploads"): http_post('<id>/copy', json={'create_subject_set': 'Uploads'}); reads response[0]['projects'][0] and the etag.
    const res = await call("POST", `/api/projects/${project.id}/copy`, py(other.token, { create_subject_set: "Uploads" }));
    expect(res.status).toBe(201);
    expect(res.headers.get("etag")).toBeTruthy();
    const copy = res.body.projects[0];
    expect(copy).toMatchObject({
      display_name: project.displayName,
      description: "Template",
      tags: ["birds"],
      live: false,
      launch_approved: false,
      classifications_count: 0,
      configuration: { source_project_id: project.id },
      links: { owner: { id: String(other.user.id) } },
    });
    const copyId = Number(copy.id);
    const [workflows, tutorials, guides, pages, translations, sets] = await Promise.all([
      db().workflow.findMany({ where: { projectId: copyId }, include: { tutorials: true, subjectSets: true } }),
      db().tutorial.findMany({ where: { projectId: copyId } }),
      db().fieldGuide.findMany({ where: { projectId: copyId } }),
      db().projectPage.findMany({ where: { projectId: copyId } }),
      db().translation.findMany({ where: { projectId: copyId } }),
      db().subjectSet.findMany({ where: { projectId: copyId } }),
    ]);
    expect(workflows.map((w) => [w.displayName, w.classificationsCount])).toEqual([[workflow.displayName, 0]]);
    expect(workflows[0].tutorials.map((t) => t.tutorialId)).toEqual([tutorials[0].id]);
    expect([guides.length, pages.map((p) => p.urlKey), tutorials.map((t) => t.displayName)]).toEqual([1, ["science_case"], ["How"]]);
    expect(translations.map((t) => [t.translatedType, t.translatedId, t.language])).toEqual([["workflow", workflows[0].id, "fr"]]);
    expect(sets.map((s) => s.displayName)).toEqual(["Uploads"]);
    expect(workflows[0].subjectSets.map((s) => s.subjectSetId)).toEqual([sets[0].id]);
    // The owner's own copy is named "(copy)"; a project that is no template, or live, cannot be copied.
    expect((await call("POST", `/api/projects/${project.id}/copy`, py(owner.token, {}))).body.projects[0].display_name).toBe(
      `${project.displayName} (copy)`,
    );
    await db().project.update({ where: { id: project.id }, data: { live: true } });
    expect((await call("POST", `/api/projects/${project.id}/copy`, py(other.token, {}))).status).toBe(422);
    expect((await call("POST", `/api/projects/${copyId}/copy`, py(other.token, {}))).status).toBe(422); // not a template
    expect((await api.post(`/projects/${project.id}/copy`, {})).status).toBe(401);
  });
});
