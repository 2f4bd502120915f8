// A private project's classification counts are its team's (owner, collaborators, any role that may show
// it) and admins'. To anyone else, every counts route answers as if the project did not exist: by
// project_id or workflow_id the same status, body and headers as an id no project has; in a volunteer's or
// a group's counts no entry, no figures, no share of the totals. The unfiltered total is the platform's
// one figure per period, private projects' classifications included, the same for every caller.
import { beforeAll, describe, expect, it } from "vitest";
import { db, pool } from "@/lib/db";
import { foldClassificationCounts } from "@/lib/domain/fold-classification-counts";
import { call } from "@/test/http";
import { createProject, createWorkflow, grantProjectRole, signedInUser } from "@/test/factories";
import { addGroupMember, createGroupOwnedBy } from "@/test/factories-collections";

/** Completed classifications on given UTC days, through the outbox and the folder, as the pipeline does. */
async function classified(rows: { project: number; workflow: number; day: string; n: number; user?: number; seconds?: number }[]) {
  for (const r of rows) {
    await pool().query(
      `INSERT INTO classification_count_outbox (classification_id, project_id, workflow_id, user_id, seconds, created_at)
       SELECT 0, $1, $2, $3, $4, ($5::date + time '12:00') FROM generate_series(1, $6)`,
      [r.project, r.workflow, r.user ?? null, r.seconds ?? 0, r.day, r.n],
    );
  }
  await foldClassificationCounts();
}

let nextId = 1_500_000_000 + Math.floor(Math.random() * 100_000_000);
const missing = () => nextId++;
const get = (path: string, token?: string) => call("GET", path, { token, accept: "application/json" });

type Who = { name: string; token?: string };
let team: Who[];
let outsiders: Who[];
let p: { id: number }, w: { id: number }, q: { id: number }, v: { id: number };
let volunteer: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  const [owner, collaborator, tester, stranger, admin] = await Promise.all([
    signedInUser(),
    signedInUser(),
    signedInUser(),
    signedInUser(),
    signedInUser({ admin: true }),
  ]);
  volunteer = await signedInUser();
  p = await createProject(owner.user.id, { private: true });
  w = await createWorkflow(p.id);
  q = await createProject(owner.user.id);
  v = await createWorkflow(q.id);
  await grantProjectRole(p.id, collaborator.user.id, ["collaborator"]);
  await grantProjectRole(p.id, tester.user.id, ["tester"]);
  team = [
    { name: "owner", token: owner.token },
    { name: "collaborator", token: collaborator.token },
    { name: "tester", token: tester.token },
    { name: "admin", token: admin.token },
  ];
  outsiders = [
    { name: "anonymous" },
    { name: "a signed-in non-member", token: stranger.token },
    { name: "a volunteer who classified it", token: volunteer.token },
    { name: "a garbage token", token: "garbage" },
  ];
  await classified([
    { project: p.id, workflow: w.id, day: "2024-06-03", n: 4, user: volunteer.user.id, seconds: 10 },
    { project: p.id, workflow: w.id, day: "2024-06-10", n: 2 },
    { project: q.id, workflow: v.id, day: "2024-06-03", n: 3, user: volunteer.user.id, seconds: 20 },
  ]);
}, 60_000);

const QUERIES = ["", "&period=day", "&period=week&start_date=2024-06-01&end_date=2024-06-30", "&start_date=2024-06-05"];

describe.each([
  ["project_id", () => p.id],
  ["workflow_id", () => w.id],
])("GET /counts/classifications?%s= of a private project", (param, privateId) => {
  it.each(QUERIES)("answers outsiders exactly as for a missing id (%s)", async (extra) => {
    for (const who of outsiders) {
      const id = missing();
      const [hidden, none] = await Promise.all([
        get(`/counts/classifications?${param}=${privateId()}${extra}`, who.token),
        get(`/counts/classifications?${param}=${id}${extra}`, who.token),
      ]);
      expect(hidden.status, who.name).toBe(none.status);
      expect(hidden.body, who.name).toEqual(none.body);
      for (const h of ["cache-control", "vary", "access-control-allow-origin", "content-type"])
        expect(hidden.headers.get(h), `${who.name}: ${h}`).toBe(none.headers.get(h));
      expect(hidden.body.total_count, who.name).toBe(0);
    }
  });

  it("gives the team and admins the figures", async () => {
    for (const who of team) {
      expect((await get(`/counts/classifications?${param}=${privateId()}`, who.token)).body, who.name).toEqual({ total_count: 6 });
      const weeks = await get(`/counts/classifications?${param}=${privateId()}&period=week`, who.token);
      expect(weeks.body, who.name).toEqual({
        total_count: 6,
        data: [
          { period: "2024-06-03T00:00:00.000Z", count: 4 },
          { period: "2024-06-10T00:00:00.000Z", count: 2 },
        ],
      });
      // Not for shared caches: the same URL answers others differently.
      expect(weeks.headers.get("cache-control"), who.name).toMatch(/private/);
      expect(weeks.headers.get("vary"), who.name).toMatch(/Authorization/);
    }
  });
});

describe("several ids, some private", () => {
  it("sum only what the caller may see", async () => {
    for (const who of outsiders)
      expect((await get(`/counts/classifications?project_id=${p.id},${q.id}`, who.token)).body, who.name).toEqual({ total_count: 3 });
    for (const who of team)
      expect((await get(`/counts/classifications?project_id=${p.id},${q.id}`, who.token)).body, who.name).toEqual({ total_count: 9 });
    for (const who of outsiders)
      expect((await get(`/counts/classifications?workflow_id=${w.id},${v.id}`, who.token)).body, who.name).toEqual({ total_count: 3 });
  });
});

describe("the unfiltered total", () => {
  it("is every classification platform-wide, private projects' included, as one figure per period, the same for every caller", async () => {
    const owner = await signedInUser();
    const hidden = await createProject(owner.user.id, { private: true });
    const shown = await createProject(owner.user.id);
    // Days no other test uses: the platform-wide rollup is shared by every test file.
    await classified([
      { project: hidden.id, workflow: missing(), day: "1977-05-02", n: 5 },
      { project: shown.id, workflow: missing(), day: "1977-05-02", n: 2 },
      { project: hidden.id, workflow: missing(), day: "1977-05-03", n: 4 },
    ]);
    const range = "start_date=1977-05-01&end_date=1977-05-31";
    for (const who of [...outsiders, ...team, { name: "the private project's owner", token: owner.token }]) {
      const res = await get(`/counts/classifications?${range}&period=day`, who.token);
      expect(res.body, who.name).toEqual({
        total_count: 11,
        data: [
          { period: "1977-05-02T00:00:00.000Z", count: 7 },
          { period: "1977-05-03T00:00:00.000Z", count: 4 },
        ],
      });
      expect(res.headers.get("cache-control"), who.name).toMatch(/public/);
    }
    // By project, only its team sees the private one's part of it.
    expect((await get(`/counts/classifications?project_id=${hidden.id},${shown.id}&${range}`)).body).toEqual({ total_count: 2 });
    expect((await get(`/counts/classifications?project_id=${hidden.id},${shown.id}&${range}`, owner.token)).body).toEqual({
      total_count: 11,
    });
  });
});

describe("a volunteer's own counts", () => {
  it("leave out a private project the volunteer cannot see (entry, figures and share of the totals); admins see it", async () => {
    const path = `/counts/classifications/users/${volunteer.user.id}`;
    const own = await get(`${path}?period=month`, volunteer.token);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({
      total_count: 3,
      time_spent: 60,
      project_contributions: [{ project_id: q.id, count: 3, time_spent: 60 }],
      data: [{ period: "2024-06-01T00:00:00.000Z", count: 3, session_time: 60, time_spent: 60 }],
    });
    expect((await get(`${path}?project_id=${p.id}`, volunteer.token)).body).toEqual({
      total_count: 0,
      time_spent: 0,
      project_contributions: [],
    });
    const admin = team.find((t) => t.name === "admin")!;
    expect((await get(path, admin.token)).body.project_contributions).toEqual([
      { project_id: p.id, count: 4, time_spent: 40 },
      { project_id: q.id, count: 3, time_spent: 60 },
    ]);
  });
});

describe("a public group's counts", () => {
  it("name a private project and count it only for those who may see it", async () => {
    const leader = await signedInUser();
    const group = await createGroupOwnedBy(leader.user.id, { private: false });
    await db().userGroup.update({ where: { id: group.id }, data: { statsVisibility: "public_show_all" } });
    await addGroupMember(group.id, volunteer.user.id);
    const path = `/counts/classifications/user_groups/${group.id}?period=year`;
    // (a garbage token is a 401 here, as on the group's other routes)
    for (const who of [...outsiders.filter((o) => o.token !== "garbage"), { name: "a group member", token: leader.token }]) {
      const res = await get(path, who.token);
      expect(res.status, who.name).toBe(200);
      expect(JSON.stringify(res.body), who.name).not.toContain(`"project_id":${p.id}`);
      expect(res.body.total_count, who.name).toBe(3);
      expect(res.body.time_spent, who.name).toBe(60);
      expect(res.body.project_contributions, who.name).toEqual([{ project_id: q.id, count: 3, time_spent: 60 }]);
      expect(res.body.data, who.name).toEqual([{ period: "2024-01-01T00:00:00.000Z", count: 3, session_time: 60, time_spent: 60 }]);
      expect(res.body.group_member_stats_breakdown, who.name).toEqual([
        {
          user_id: volunteer.user.id,
          count: 3,
          session_time: 60,
          project_contributions: [{ project_id: q.id, count: 3, session_time: 60 }],
        },
      ]);
    }
    for (const who of team) {
      const res = await get(path, who.token);
      expect(res.body.total_count, who.name).toBe(7);
      expect(res.body.project_contributions, who.name).toEqual([
        { project_id: p.id, count: 4, time_spent: 40 },
        { project_id: q.id, count: 3, time_spent: 60 },
      ]);
    }
  });
});
