import { describe, expect, it } from "vitest";
import { db, pool } from "@/lib/db";
import { foldClassificationCounts } from "@/lib/domain/fold-classification-counts";
import { api, call } from "@/test/http";
import { classifiableProject, classificationBody, signedInUser } from "@/test/factories";

let nextId = 1_000_000_000 + Math.floor(Math.random() * 100_000_000);
const fresh = () => nextId++;

/** Completed classifications on given UTC days, through the outbox and the folder, as the pipeline does. */
async function classified(rows: { project: number; workflow: number; day: string; n: number; user?: number; seconds?: number }[]) {
  for (const r of rows) {
    await pool().query(
      `INSERT INTO classification_count_outbox (classification_id, project_id, workflow_id, user_id, seconds, created_at)
       SELECT 0, $1, $2, $3, $4, ($5::date + time '12:34') FROM generate_series(1, $6)`,
      [r.project, r.workflow, r.user ?? null, r.seconds ?? 0, r.day, r.n],
    );
  }
  await foldClassificationCounts();
}

const counts = (q: string) => call("GET", `/counts/classifications${q ? `?${q}` : ""}`, { accept: "application/json" });

describe("GET /counts/classifications", () => {
  const p1 = fresh(),
    p2 = fresh(),
    w1 = fresh(),
    w2 = fresh(),
    w3 = fresh();
  const seeded = classified([
    { project: p1, workflow: w1, day: "2023-12-31", n: 5 },
    { project: p1, workflow: w1, day: "2024-01-01", n: 2 },
    { project: p1, workflow: w2, day: "2024-01-07", n: 1 },
    { project: p1, workflow: w2, day: "2024-01-08", n: 3 },
    { project: p1, workflow: w1, day: "2024-01-31", n: 1 },
    { project: p1, workflow: w1, day: "2024-02-01", n: 4 },
    { project: p2, workflow: w3, day: "2024-01-02", n: 10 },
  ]);

  it.each([
    [
      "day",
      [
        ["2023-12-31", 5],
        ["2024-01-01", 2],
        ["2024-01-07", 1],
        ["2024-01-08", 3],
        ["2024-01-31", 1],
        ["2024-02-01", 4],
      ],
    ],
    // Weeks start on Monday: Sunday 2023-12-31 is in the week of 2023-12-25, Sunday 2024-01-07 in that of 2024-01-01.
    [
      "week",
      [
        ["2023-12-25", 5],
        ["2024-01-01", 3],
        ["2024-01-08", 3],
        ["2024-01-29", 5],
      ],
    ],
    [
      "WEEK",
      [
        ["2023-12-25", 5],
        ["2024-01-01", 3],
        ["2024-01-08", 3],
        ["2024-01-29", 5],
      ],
    ],
    [
      "month",
      [
        ["2023-12-01", 5],
        ["2024-01-01", 7],
        ["2024-02-01", 4],
      ],
    ],
    [
      "Year",
      [
        ["2023-01-01", 5],
        ["2024-01-01", 11],
      ],
    ],
  ])("buckets a project by %s in UTC, omitting empty buckets", async (period, want) => {
    await seeded;
    const res = await counts(`project_id=${p1}&period=${period}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      total_count: 16,
      data: (want as [string, number][]).map(([d, n]) => ({ period: `${d}T00:00:00.000Z`, count: n })),
    });
  });

  it("sums several ids, filters by workflow, and takes inclusive date ranges", async () => {
    await seeded;
    expect((await counts(`project_id=${p1}`)).body).toEqual({ total_count: 16 });
    expect((await counts(`project_id=${p1},${p2}`)).body).toEqual({ total_count: 26 });
    expect((await counts(`workflow_id=${w2}`)).body).toEqual({ total_count: 4 });
    expect((await counts(`workflow_id=${w1},${w3}`)).body).toEqual({ total_count: 22 });
    expect((await counts(`project_id=${p1}&start_date=2024-01-07&end_date=2024-01-31`)).body).toEqual({ total_count: 5 });
    expect((await counts(`project_id=${p1}&start_date=2024-01-08&end_date=2024-01-08&period=day`)).body).toEqual({
      total_count: 3,
      data: [{ period: "2024-01-08T00:00:00.000Z", count: 3 }],
    });
    expect((await counts(`project_id=${p1}&start_date=2024-02-01`)).body).toEqual({ total_count: 4 });
    expect((await counts(`project_id=${p1}&end_date=2023-12-31`)).body).toEqual({ total_count: 5 });
    expect((await counts(`project_id=${p1}&start_date=2030-01-01&period=day`)).body).toEqual({ total_count: 0, data: [] });
    expect((await counts(`project_id=${fresh()}`)).body).toEqual({ total_count: 0 });
  });

  it("counts everything with no filter", async () => {
    await classified([
      { project: fresh(), workflow: fresh(), day: "1990-06-15", n: 7 },
      { project: fresh(), workflow: fresh(), day: "1990-06-16", n: 2 },
    ]);
    expect((await counts("start_date=1990-01-01&end_date=1990-12-31&period=month")).body).toEqual({
      total_count: 9,
      data: [{ period: "1990-06-01T00:00:00.000Z", count: 9 }],
    });
    const all = await counts("");
    expect(all.status).toBe(200);
    expect(all.body.total_count).toBeGreaterThanOrEqual(9);
    expect(all.body.data).toBeUndefined();
    expect(all.headers.get("cache-control")).toMatch(/public/);
    expect(all.headers.get("access-control-allow-origin")).toBe("*");
  });

  it.each([
    ["project_id=1&workflow_id=2", /together/],
    ["start_date=2024-02-30", /start_date/],
    ["end_date=2024-1-01", /end_date/],
    ["start_date=20240101", /start_date/],
    ["start_date=2024-03-01&end_date=2024-02-01", /after/],
    ["period=hour", /period/],
    ["period=", /period/],
    ["project_id=abc", /project_id/],
    ["workflow_id=1,,2", /workflow_id/],
    ["project_id=-4", /project_id/],
    ["start_date=2024-01-01';DROP TABLE classifications;--", /start_date/],
  ])("%s → 400 with a JSON error", async (q, msg) => {
    const res = await counts(q);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(msg);
  });

  it("includes today's classifications made through the API once folded (within a second in the server)", async () => {
    const { workflow, project, subjects } = await classifiableProject(1);
    const v = await signedInUser();
    for (let i = 0; i < 3; i++) await api.post("/classifications", classificationBody(workflow, [subjects[0].id]), { token: v.token });
    await foldClassificationCounts();
    const today = new Date().toISOString().slice(0, 10);
    expect((await counts(`project_id=${project.id}&period=day`)).body).toEqual({
      total_count: 3,
      data: [{ period: `${today}T00:00:00.000Z`, count: 3 }],
    });
    expect((await counts(`workflow_id=${workflow.id}`)).body).toEqual({ total_count: 3 });
  });
});

describe("GET /counts/classifications/users/<id>", () => {
  it("gives a volunteer their per-project contributions and time spent; only to them or an admin", async () => {
    const me = await signedInUser();
    const other = await signedInUser();
    const admin = await signedInUser({ admin: true });
    const pa = fresh(),
      pb = fresh();
    await classified([
      { project: pa, workflow: fresh(), day: "2024-03-04", n: 3, user: me.user.id, seconds: 60 },
      { project: pb, workflow: fresh(), day: "2024-03-05", n: 1, user: me.user.id, seconds: 10800 },
      { project: pa, workflow: fresh(), day: "2024-03-11", n: 2, user: other.user.id, seconds: 5 },
    ]);
    const path = `/counts/classifications/users/${me.user.id}`;
    const res = await call("GET", `${path}?period=week`, { token: me.token, accept: "application/json" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      total_count: 4,
      time_spent: 3 * 60 + 10800,
      project_contributions: [
        { project_id: pa, count: 3, time_spent: 180 },
        { project_id: pb, count: 1, time_spent: 10800 },
      ],
      data: [{ period: "2024-03-04T00:00:00.000Z", count: 4, session_time: 10980, time_spent: 10980 }],
    });
    expect((await call("GET", `${path}?project_id=${pb}`, { token: admin.token, accept: "application/json" })).body).toMatchObject({
      total_count: 1,
    });
    expect((await call("GET", path, { token: other.token, accept: "application/json" })).status).toBe(403);
    expect((await call("GET", path, { accept: "application/json" })).status).toBe(401);
    expect((await call("GET", `${path}?workflow_id=1`, { token: me.token, accept: "application/json" })).status).toBe(400);
    expect((await call("GET", `/counts/classifications/users/abc`, { token: me.token, accept: "application/json" })).status).toBe(404);
  });

  it("counts what the folder has not moved into the rollups yet", async () => {
    const me = await signedInUser();
    const pa = fresh();
    await classified([{ project: pa, workflow: fresh(), day: "2024-03-04", n: 2, user: me.user.id, seconds: 30 }]);
    // Two more, still in the outbox (the folder runs about every second).
    await pool().query(
      `INSERT INTO classification_count_outbox (classification_id, project_id, workflow_id, user_id, seconds, created_at)
       SELECT 0, $1, 0, $2, 20, timestamp '2024-03-06 08:00' FROM generate_series(1, 2)`,
      [pa, me.user.id],
    );
    try {
      const res = await call("GET", `/counts/classifications/users/${me.user.id}?period=day`, {
        token: me.token,
        accept: "application/json",
      });
      expect(res.body).toEqual({
        total_count: 4,
        time_spent: 100,
        project_contributions: [{ project_id: pa, count: 4, time_spent: 100 }],
        data: [
          { period: "2024-03-04T00:00:00.000Z", count: 2, session_time: 60, time_spent: 60 },
          { period: "2024-03-06T00:00:00.000Z", count: 2, session_time: 40, time_spent: 40 },
        ],
      });
    } finally {
      await foldClassificationCounts();
    }
  });

  it("caps each classification's time at 3 hours and ignores unreadable times", async () => {
    const { secondsSpent } = await import("@/lib/domain/create-classification");
    expect(secondsSpent({ started_at: "2024-01-01T00:00:00Z", finished_at: "2024-01-01T00:01:30Z" })).toBe(90);
    expect(secondsSpent({ started_at: "2024-01-01T00:00:00Z", finished_at: "2024-01-02T00:00:00Z" })).toBe(10800);
    expect(secondsSpent({ started_at: "2024-01-01T00:01:00Z", finished_at: "2024-01-01T00:00:00Z" })).toBe(0);
    expect(secondsSpent({ started_at: "nope", finished_at: "2024-01-01T00:00:00Z" })).toBe(0);
    expect(secondsSpent(undefined)).toBe(0);
  });
});

describe("what no counts route serves", () => {
  it.each([
    ["GET", "/counts/nothing", 404, /No route matches GET \/counts\/nothing/],
    ["GET", "/counts/classifications/projects/1", 404, /No route matches/],
    ["POST", "/counts/classifications", 405, /POST is not allowed on \/counts\/classifications; allowed: GET/],
    ["DELETE", "/counts/classifications", 405, /allowed: GET/],
    ["GET", "/engine/nothing/here", 404, /No route matches GET \/engine\/nothing\/here/],
  ] as const)("%s %s answers %i with a JSON error", async (method, path, status, message) => {
    const res = await call(method, path, { accept: "application/json", contentType: null });
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body.errors[0].message).toMatch(message);
    if (status === 405) expect(res.headers.get("allow")).toBe("GET");
  });
});

describe("GET /counts/classifications/user_groups/<id>", () => {
  async function groupWith(visibility: string, opts: { private?: boolean } = {}) {
    const admin = await signedInUser();
    const member = await signedInUser();
    const leaver = await signedInUser();
    const group = await db().userGroup.create({
      data: {
        name: `counts_${fresh()}_${Date.now()}`,
        displayName: "Counters",
        private: opts.private ?? false,
        joinToken: "t",
        statsVisibility: visibility,
      },
    });
    await db().membership.createMany({
      data: [
        { userGroupId: group.id, userId: admin.user.id, state: "active", roles: ["group_admin"] },
        { userGroupId: group.id, userId: member.user.id, state: "active", roles: ["group_member"] },
        { userGroupId: group.id, userId: leaver.user.id, state: "inactive", roles: ["group_member"] },
      ],
    });
    const pa = fresh();
    await classified([
      { project: pa, workflow: fresh(), day: "2024-05-06", n: 2, user: admin.user.id, seconds: 30 },
      { project: pa, workflow: fresh(), day: "2024-05-07", n: 3, user: member.user.id, seconds: 50 },
      { project: pa, workflow: fresh(), day: "2024-05-07", n: 7, user: leaver.user.id, seconds: 70 },
    ]);
    return { group, admin, member, leaver, pa };
  }
  const get = (id: number, token?: string, q = "") =>
    call("GET", `/counts/classifications/user_groups/${id}${q}`, { token, accept: "application/json" });

  it("counts the active members together, with buckets and each member when the visibility shows them", async () => {
    const { group, admin, member, pa } = await groupWith("private_show_agg_and_ind");
    const res = await get(group.id, member.token, "?period=day");
    expect(res.status).toBe(200);
    // Seconds are per classification: 2 × 30 s and 3 × 50 s.
    expect(res.body).toEqual({
      total_count: 5,
      time_spent: 210,
      active_users: 2,
      project_contributions: [{ project_id: pa, count: 5, time_spent: 210 }],
      data: [
        { period: "2024-05-06T00:00:00.000Z", count: 2, session_time: 60, time_spent: 60 },
        { period: "2024-05-07T00:00:00.000Z", count: 3, session_time: 150, time_spent: 150 },
      ],
      group_member_stats_breakdown: [
        { user_id: member.user.id, count: 3, session_time: 150, project_contributions: [{ project_id: pa, count: 3, session_time: 150 }] },
        { user_id: admin.user.id, count: 2, session_time: 60, project_contributions: [{ project_id: pa, count: 2, session_time: 60 }] },
      ],
    });
    expect((await get(group.id, member.token, "?start_date=2024-05-07")).body.total_count).toBe(3);
  });

  it.each([
    ["private_agg_only", { member: "together", stranger: 403, anonymous: 401 }],
    ["private_show_agg_and_ind", { member: "both", stranger: 403, anonymous: 401 }],
    ["public_agg_only", { member: "together", stranger: "together", anonymous: "together" }],
    ["public_agg_show_ind_if_member", { member: "both", stranger: "together", anonymous: "together" }],
    ["public_show_all", { member: "both", stranger: "both", anonymous: "both" }],
  ] as const)("%s: who sees what", async (visibility, expected) => {
    const { group, member } = await groupWith(visibility);
    const stranger = await signedInUser();
    const admin = await signedInUser({ admin: true });
    for (const [who, token, want] of [
      ["member", member.token, expected.member],
      ["stranger", stranger.token, expected.stranger],
      ["anonymous", undefined, expected.anonymous],
      ["admin", admin.token, "both"],
    ] as const) {
      const res = await get(group.id, token);
      if (typeof want === "number") {
        expect(res.status, who).toBe(want);
        expect(res.body.errors[0].message, who).toBeTruthy();
        continue;
      }
      expect(res.status, who).toBe(200);
      expect(res.body.total_count, who).toBe(5);
      expect("group_member_stats_breakdown" in res.body, who).toBe(want === "both");
    }
  });

  it("is a JSON 404 for a private group to outsiders and for a missing one", async () => {
    const { group, member } = await groupWith("public_show_all", { private: true });
    const stranger = await signedInUser();
    expect((await get(group.id, member.token)).status).toBe(200);
    for (const res of [await get(group.id, stranger.token), await get(group.id), await get(99999999, member.token)]) {
      expect(res.status).toBe(404);
      expect(res.body.errors[0].message).toMatch(/user_groups/);
    }
  });
});
