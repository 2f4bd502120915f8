// The established platform's project listing: the filters and sorts its front end and clients send, the
// fields they read (launch_date, featured, state, completeness, activity, classifiers_count), and unknown
// filters refused by name.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { foldClassificationCounts } from "@/lib/domain/fold-classification-counts";
import { refreshProjectStats } from "@/lib/domain/project-stats";
import { api } from "@/test/http";
import { classifiableProject, classificationBody, createProject, signedInUser, uid } from "@/test/factories";

const names = (res: { body: { projects: { display_name: string }[] } }) => res.body.projects.map((p) => p.display_name);

describe("project listing", () => {
  it("filters by featured, state, tags (any of, any case), complete, launch and beta approval, mobile_friendly", async () => {
    const admin = await signedInUser({ admin: true });
    const owner = await signedInUser();
    const tag = `t${uid()}`;
    const mk = async (name: string, data: Record<string, unknown>, tags: string[]) => {
      const p = await createProject(owner.user.id, { displayName: `${name} ${tag}`, live: true });
      await db().project.update({ where: { id: p.id }, data: { tags: [tag, ...tags], ...data } });
      return p;
    };
    await mk("A", { featured: true, launchApproved: true, completeness: 1 }, ["astronomy"]);
    await mk("B", { state: "paused", beta: true, mobileFriendly: true, completeness: 0.5 }, ["biology"]);
    await mk("C", { state: "finished", launchApproved: true, completeness: 1 }, ["astronomy", "history"]);
    await mk("D", { live: false }, []);
    const list = async (q: string) => {
      const res = await api.get(`/projects?tags=${tag}&sort=display_name&${q}`, { token: admin.token });
      expect(res.status, `${q}: ${JSON.stringify(res.body)}`).toBe(200);
      return names(res).map((n) => n.split(" ")[0]);
    };
    const cases: [string, string[]][] = [
      ["", ["A", "B", "C", "D"]],
      ["featured=true", ["A"]],
      ["featured=false", ["B", "C", "D"]],
      ["state=live", ["A"]],
      ["state=paused", ["B"]],
      ["state=finished", ["C"]],
      ["complete=true", ["A", "C"]],
      ["complete=false", ["B", "D"]],
      ["launch_approved=true", ["A", "C"]],
      ["beta_approved=true", ["B"]],
      ["mobile_friendly=true", ["B"]],
      ["live=false", ["D"]],
    ];
    for (const [q, expected] of cases) expect(await list(q), q).toEqual(expected);
    // tags: any of several, case-insensitive; combined with our unique tag through a second request.
    const astro = await api.get(`/projects?tags=ASTRONOMY,History&display_name=C ${tag}`);
    expect(names(astro)).toEqual([`C ${tag}`]);
    const either = (await api.get(`/projects?tags=${tag.toUpperCase()}, nothing-like-it&sort=display_name`)).body.projects.length;
    expect(either).toBe(4);
  });

  it("refuses unknown filters and bad values by name, with a 422", async () => {
    const cases: [string, RegExp][] = [
      ["/projects?colour=red", /Unknown filter 'colour' for projects; filters: .*featured/],
      ["/projects?state=sleeping", /state must be live, paused or finished/],
      ["/projects?featured=maybe", /featured must be true or false/],
      ["/projects?tags=,", /tags must be one or more/],
      ["/workflows?colour=red", /Unknown filter 'colour' for workflows/],
      ["/users?emial=a@b.c", /Unknown filter 'emial' for users/],
    ];
    for (const [path, message] of cases) {
      const res = await api.get(path);
      expect(res.status, path).toBe(422);
      expect(res.body.errors[0].message, path).toMatch(message);
    }
    // The clients' own response modes are accepted.
    expect((await api.get("/projects?cards=true&http_cache=true&page_size=1")).status).toBe(200);
  });

  it("sorts by launch_date, activity, completeness and classifiers_count", async () => {
    const owner = await signedInUser();
    const tag = `s${uid()}`;
    const rows = [
      { n: "P", launchDate: new Date("2024-01-01"), activity: 5, completeness: 0.2, classifiersCount: 30 },
      { n: "Q", launchDate: new Date("2025-06-01"), activity: 50, completeness: 0.9, classifiersCount: 3 },
      { n: "R", launchDate: new Date("2023-03-01"), activity: 7, completeness: 0.5, classifiersCount: 300 },
    ];
    for (const r of rows) {
      const p = await createProject(owner.user.id, { displayName: `${r.n} ${tag}` });
      await db().project.update({
        where: { id: p.id },
        data: {
          tags: [tag],
          launchApproved: true,
          launchDate: r.launchDate,
          activity: r.activity,
          completeness: r.completeness,
          classifiersCount: r.classifiersCount,
        },
      });
    }
    const order = async (sort: string) => names(await api.get(`/projects?tags=${tag}&sort=${sort}`)).map((n) => n.split(" ")[0]);
    expect(await order("-launch_date")).toEqual(["Q", "P", "R"]);
    expect(await order("-activity")).toEqual(["Q", "R", "P"]);
    expect(await order("completeness")).toEqual(["P", "R", "Q"]);
    expect(await order("-classifiers_count")).toEqual(["R", "P", "Q"]);
    const one = (await api.get(`/projects?tags=${tag}&sort=-launch_date&page_size=1`)).body.projects[0];
    expect(one).toMatchObject({
      launch_date: "2025-06-01T00:00:00.000Z",
      activity: 50,
      completeness: 0.9,
      classifiers_count: 3,
      featured: false,
      state: null,
      launch_approved: true,
    });
  });

  it("dates the launch when an admin approves it, keeps that date, and lets only admins feature a project", async () => {
    const admin = await signedInUser({ admin: true });
    const owner = await signedInUser();
    const p = await createProject(owner.user.id);
    const put = async (token: string, projects: object) => {
      const etag = (await api.get(`/projects/${p.id}`, { token: admin.token })).headers.get("etag")!;
      return api.put(`/projects/${p.id}`, { projects }, { token, headers: { "if-match": etag } });
    };
    expect((await put(owner.token, { featured: true })).status).toBe(403);
    expect((await put(owner.token, { launch_approved: true })).status).toBe(403);
    const approved = await put(admin.token, { launch_approved: true, featured: true });
    expect(approved.status).toBe(200);
    const first = approved.body.projects[0].launch_date;
    expect(Date.now() - Date.parse(first)).toBeLessThan(60_000);
    expect(approved.body.projects[0].featured).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    const again = await put(admin.token, { launch_approved: true });
    expect(again.body.projects[0].launch_date).toBe(first);
    // Owners set their project's state and requests.
    const state = await put(owner.token, { state: "paused", launch_requested: true, mobile_friendly: true });
    expect(state.body.projects[0]).toMatchObject({ state: "paused", launch_requested: true, mobile_friendly: true });
    expect((await put(owner.token, { state: "asleep" })).status).toBe(422);
    expect((await db().project.findUniqueOrThrow({ where: { id: p.id } })).state).toBe("paused");
  });

  it("counts distinct volunteers, and refreshes completeness and 24-hour activity", async () => {
    const { project, workflow, subjects } = await classifiableProject(4, {
      retirement: { criteria: "classification_count", options: { count: 2 } },
    });
    const [a, b] = [await signedInUser(), await signedInUser()];
    for (const v of [a, a, b])
      for (const s of subjects.slice(0, 2)) await api.post("/classifications", classificationBody(workflow, [s.id]), { token: v.token });
    await api.post("/classifications", classificationBody(workflow, [subjects[3].id])); // anonymous
    await foldClassificationCounts();
    await refreshProjectStats();
    const p = await db().project.findUniqueOrThrow({ where: { id: project.id } });
    // a and b (anonymous volunteers are not counted); 2 of 4 subjects retired (a's repeats do not count).
    expect(p.classifiersCount).toBe(2);
    expect(p.completeness).toBeCloseTo(0.5);
    expect(p.activity).toBe(7);
    const w = await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } });
    expect(w).toMatchObject({ completeness: 0.5, activity: 7 });
    // Another fold of new classifications by the same volunteers adds nobody.
    await api.post("/classifications", classificationBody(workflow, [subjects[2].id]), { token: b.token });
    await foldClassificationCounts();
    expect((await db().project.findUniqueOrThrow({ where: { id: project.id } })).classifiersCount).toBe(2);
  });
});

describe("user listing", () => {
  it("finds users by one or several logins in any case; only admins by email", async () => {
    const [u1, u2] = [await signedInUser(), await signedInUser()];
    const admin = await signedInUser({ admin: true });
    const byLogin = await api.get(`/users?login=${u1.user.login.toUpperCase()},${u2.user.login}&sort=id`);
    expect(byLogin.body.users.map((u: { id: string }) => u.id)).toEqual([String(u1.user.id), String(u2.user.id)]);
    const byEmail = await api.get(`/users?email=${u2.user.email.toUpperCase()}`, { token: admin.token });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.users.map((u: { id: string }) => u.id)).toEqual([String(u2.user.id)]);
    for (const token of [undefined, u1.token]) {
      const refused = await api.get(`/users?email=${u2.user.email}`, { token });
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0].message).toMatch(/Only admins/);
    }
  });
});

describe("project preference activity_count", () => {
  it("counts a volunteer's classifications of the project (created on the first, as the established platform)", async () => {
    const { project, workflow, subjects } = await classifiableProject(3);
    const v = await signedInUser();
    for (const s of subjects) await api.post("/classifications", classificationBody(workflow, [s.id]), { token: v.token });
    await foldClassificationCounts();
    const pref = await db().projectPreference.findUniqueOrThrow({
      where: { userId_projectId: { userId: v.user.id, projectId: project.id } },
    });
    expect(pref.activityCount).toBe(3);
    const before = pref.updatedAt;
    await api.post("/classifications", classificationBody(workflow, [subjects[0].id]), { token: v.token });
    await foldClassificationCounts();
    const after = await db().projectPreference.findUniqueOrThrow({ where: { id: pref.id } });
    expect(after.activityCount).toBe(4);
    expect(after.updatedAt).toEqual(before); // its ETag holds for a client editing it
    const listed = await api.get(`/project_preferences?project_id=${project.id}`, { token: v.token });
    expect(listed.body.project_preferences[0].activity_count).toBe(4);
  });
});
