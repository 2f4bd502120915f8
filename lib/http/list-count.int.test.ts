// Lists at sizes where counting the scope would cost more than the page (lib/http/list-count.ts): a scope a
// counter answers says "counter" and equals the real count; a large scope without one says "estimate" and
// still pages to exactly its last row; a filtered list is exact; the counters never answer for records the
// caller cannot see. The large scope is made with set-based SQL and ANALYZEd, as production's statistics are.
import { beforeAll, describe, expect, it } from "vitest";
import { pool } from "@/lib/db";
import { foldClassificationCounts } from "@/lib/domain/fold-classification-counts";
import { ESTIMATE_THRESHOLD } from "@/lib/http/list-count";
import { api } from "@/test/http";
import { classifiableProject, classificationBody, createProject, createSubjectSet, signedInUser } from "@/test/factories";

const BULK = 25_013;
const INCOMPLETE = 7;

type Fixture = Awaited<ReturnType<typeof classifiableProject>> & {
  volunteer: Awaited<ReturnType<typeof signedInUser>>;
  other: Awaited<ReturnType<typeof signedInUser>>;
};
let f: Fixture;

async function realCount(sql: string, values: unknown[]): Promise<number> {
  return Number((await pool().query<{ n: string }>(`SELECT count(*) AS n FROM classifications WHERE ${sql}`, values)).rows[0].n);
}

const meta = (body: any, type = "classifications") => body.meta[type];

beforeAll(async () => {
  const base = await classifiableProject(3);
  const volunteer = await signedInUser();
  const other = await signedInUser();
  f = { ...base, volunteer, other };
  // BULK completed classifications by one volunteer, each counted as the create path counts it (a row in
  // the count outbox), and a few incomplete ones (never counted).
  await pool().query(
    `WITH ins AS (
       INSERT INTO classifications (project_id, workflow_id, user_id, subject_ids, annotations, metadata, completed, workflow_version, updated_at)
       SELECT $1, $2, $3, ARRAY[$4::int], '[]', '{}', true, '1.1', now() FROM generate_series(1, $5)
       RETURNING id, project_id, workflow_id, user_id)
     INSERT INTO classification_count_outbox (classification_id, project_id, workflow_id, user_id) SELECT id, project_id, workflow_id, user_id FROM ins`,
    [f.project.id, f.workflow.id, volunteer.user.id, f.subjects[0].id, BULK],
  );
  await pool().query(
    `INSERT INTO classifications (project_id, workflow_id, user_id, subject_ids, annotations, metadata, completed, workflow_version, updated_at)
     SELECT $1, $2, $3, ARRAY[$4::int], '[]', '{}', false, '1.1', now() FROM generate_series(1, $5)`,
    [f.project.id, f.workflow.id, volunteer.user.id, f.subjects[1].id, INCOMPLETE],
  );
  // And three through the API, from another volunteer.
  for (const s of f.subjects)
    expect((await api.post("/classifications", classificationBody(f.workflow, [s.id]), { token: other.token })).status).toBe(201);
  await pool().query("ANALYZE classifications");
}, 120_000);

describe("counts from counters", () => {
  it("a project's and a workflow's classifications, complete and incomplete, before and after the counters are folded", async () => {
    const real = await realCount("project_id = $1", [f.project.id]);
    expect(real).toBe(BULK + INCOMPLETE + 3);
    for (const fold of [false, true]) {
      if (fold) await foldClassificationCounts();
      for (const query of [
        `project_id=${f.project.id}`,
        `workflow_id=${f.workflow.id}`,
        `project_ids=${f.project.id}&workflow_id=${f.workflow.id}`,
      ]) {
        const res = await api.get(`/classifications/project?${query}&page_size=10`, { token: f.owner.token });
        expect(res.status, query).toBe(200);
        expect(meta(res.body), `${query} fold ${fold}`).toMatchObject({
          count: real,
          count_source: "counter",
          page_count: Math.ceil(real / 10),
          next_page: 2,
        });
      }
    }
    // A workflow of another project named beside this project: not the counter's scope.
    const elsewhere = await classifiableProject(1);
    const mixed = await api.get(`/classifications/project?project_id=${f.project.id}&workflow_id=${elsewhere.workflow.id}`, {
      token: f.owner.token,
    });
    expect(meta(mixed.body)).toMatchObject({ count: 0, count_source: "exact" });
  });

  it("a volunteer's own completed classifications, of every project or one", async () => {
    const real = await realCount("user_id = $1 AND completed", [f.volunteer.user.id]);
    expect(real).toBe(BULK);
    for (const query of ["", `project_id=${f.project.id}`]) {
      const res = await api.get(`/classifications?${query}&page_size=5`, { token: f.volunteer.token });
      expect(meta(res.body), query).toMatchObject({ count: BULK, count_source: "counter", next_page: 2 });
    }
    const none = await api.get(`/classifications?project_id=${f.subjects[0].projectId + 1_000_000}&page_size=5`, {
      token: f.volunteer.token,
    });
    expect(meta(none.body)).toMatchObject({ count: 0, count_source: "exact" });
    // The other volunteer's three, counted through the create path's outbox and, once folded, the rollups.
    await foldClassificationCounts();
    const theirs = await api.get(`/classifications/default?page_size=2`, { token: f.other.token });
    expect(meta(theirs.body)).toMatchObject({ count: 3, count_source: "counter", page_count: 2 });
  });

  it("is not used for a caller who does not see the whole scope, nor past a filter it does not count", async () => {
    const stranger = await signedInUser();
    const hidden = await api.get(`/classifications/project?project_id=${f.project.id}&page_size=2`, { token: stranger.token });
    expect(hidden.body.classifications).toEqual([]);
    expect(meta(hidden.body)).toMatchObject({ count: 0, count_source: "exact", next_page: null });
    // Filters beyond the counter's: exact counts (the planner expects few).
    const byUser = await api.get(`/classifications/project?project_id=${f.project.id}&user_id=${f.other.user.id}&page_size=2`, {
      token: f.owner.token,
    });
    expect(meta(byUser.body)).toMatchObject({ count: 3, count_source: "exact", page_count: 2, next_page: 2 });
    const bySubject = await api.get(`/classifications/project?project_id=${f.project.id}&subject_id=${f.subjects[1].id}&page_size=2`, {
      token: f.owner.token,
    });
    expect(meta(bySubject.body)).toMatchObject({
      count: await realCount("project_id = $1 AND $2 = ANY(subject_ids)", [f.project.id, f.subjects[1].id]),
      count_source: "exact",
    });
    const incomplete = await api.get(`/classifications/incomplete?page_size=2`, { token: f.volunteer.token });
    expect(meta(incomplete.body)).toMatchObject({ count: INCOMPLETE, count_source: "exact", page_count: 4 });
  });

  it("a set's members and a project's subjects, for those who see the project; not a private one's to others", async () => {
    const { set } = await createSubjectSet(f.project.id, 4);
    const members = await api.get(`/set_member_subjects?subject_set_id=${set.id}&page_size=2`, { token: f.owner.token });
    expect(meta(members.body, "set_member_subjects")).toMatchObject({ count: 4, count_source: "counter", next_page: 2 });
    const subjects = await api.get(`/subjects?project_id=${f.project.id}&page_size=2`, { token: f.volunteer.token });
    const real = Number((await pool().query(`SELECT count(*) AS n FROM subjects WHERE project_id = $1`, [f.project.id])).rows[0].n);
    expect(meta(subjects.body, "subjects")).toMatchObject({ count: real, count_source: "counter" });
    // One more filter: not the counter's.
    const both = await api.get(`/subjects?project_id=${f.project.id}&subject_set_id=${set.id}&page_size=2`, { token: f.owner.token });
    expect(meta(both.body, "subjects")).toMatchObject({ count: 4, count_source: "exact" });
    const secret = await classifiableProject(3, { private: true });
    for (const [path, type] of [
      [`/set_member_subjects?subject_set_id=${secret.set.id}&page_size=2`, "set_member_subjects"],
      [`/subjects?project_id=${secret.project.id}&page_size=2`, "subjects"],
    ]) {
      const res = await api.get(path, { token: f.volunteer.token });
      expect(res.body[type], path).toEqual([]);
      expect(meta(res.body, type), path).toMatchObject({ count: 0, count_source: "exact" });
      expect(meta((await api.get(path, { token: secret.owner.token })).body, type), path).toMatchObject({
        count: 3,
        count_source: "counter",
      });
    }
  });

  it("a copied set's count follows its subjects when their project is deleted", async () => {
    const source = await classifiableProject(3);
    const target = await createProject(source.owner.user.id);
    const linked = await api.post(
      `/projects/${target.id}/links/subject_sets`,
      { subject_sets: [String(source.set.id)] },
      { token: source.owner.token },
    );
    expect(linked.status).toBe(200);
    const copy = (
      await pool().query<{ id: number; n: number }>(`SELECT id, set_member_subjects_count AS n FROM subject_sets WHERE project_id = $1`, [
        target.id,
      ])
    ).rows[0];
    expect(copy.n).toBe(3);
    const etag = (await api.get(`/projects/${source.project.id}`, { token: source.owner.token })).headers.get("etag")!;
    expect((await api.delete(`/projects/${source.project.id}`, { token: source.owner.token, headers: { "if-match": etag } })).status).toBe(
      204,
    );
    const after = (
      await pool().query<{ n: number; real: string }>(
        `SELECT set_member_subjects_count AS n, (SELECT count(*) FROM set_member_subjects WHERE subject_set_id = $1) AS real FROM subject_sets WHERE id = $1`,
        [copy.id],
      )
    ).rows[0];
    expect(after).toEqual({ n: 0, real: "0" });
  });
});

describe("estimates", () => {
  it("a large scope no counter answers gives the planner's estimate, and paging still ends exactly at the last row", async () => {
    const path = `/classifications?workflow_id=${f.workflow.id}&page_size=100`;
    const first = await api.get(path, { token: f.volunteer.token });
    expect(first.status).toBe(200);
    const m = meta(first.body);
    expect(m.count_source).toBe("estimate");
    expect(m.count).toBeGreaterThanOrEqual(ESTIMATE_THRESHOLD);
    expect(m.count).toBeLessThan(4 * BULK);
    expect(m).toMatchObject({ page: 1, next_page: 2, page_count: Math.ceil(m.count / 100) });
    const lastPage = Math.ceil(BULK / 100);
    const last = await api.get(`${path}&page=${lastPage}`, { token: f.volunteer.token });
    expect(last.body.classifications).toHaveLength(BULK % 100);
    expect(meta(last.body)).toMatchObject({
      count: BULK,
      count_source: "exact",
      page_count: lastPage,
      next_page: null,
      next_href: null,
      previous_page: lastPage - 1,
    });
    const full = await api.get(`${path}&page=${lastPage - 1}`, { token: f.volunteer.token });
    expect(meta(full.body)).toMatchObject({ next_page: lastPage, count_source: "estimate" });
    const beyond = await api.get(`${path}&page=${lastPage + 1}`, { token: f.volunteer.token });
    expect(beyond.body.classifications).toEqual([]);
    expect(meta(beyond.body)).toMatchObject({ next_page: null, next_href: null });
  });

  it("the Python client's walk of a project (following next_href) visits every classification once, in id order", async () => {
    const want = (
      await pool().query<{ id: number }>(`SELECT id FROM classifications WHERE project_id = $1 ORDER BY id`, [f.project.id])
    ).rows.map((r) => String(r.id));
    const seen: string[] = [];
    const sources = new Set<string>();
    let href: string | null = `/classifications/project?project_id=${f.project.id}&page_size=100`;
    let pages = 0;
    while (href) {
      const res: any = await api.get(href, { token: f.owner.token });
      expect(res.status, href).toBe(200);
      seen.push(...res.body.classifications.map((c: { id: string }) => c.id));
      const m = meta(res.body);
      sources.add(m.count_source);
      if (pages > 0) expect(href).toMatch(/last_id=\d+/);
      expect(href).not.toMatch(/[?&]page=/);
      href = m.next_href;
      pages++;
      expect(pages).toBeLessThanOrEqual(want.length / 100 + 1);
    }
    expect(seen).toEqual(want);
    expect(pages).toBe(Math.ceil(want.length / 100));
    expect([...sources].sort()).toEqual(["counter", "estimate", "exact"]);
  }, 120_000);

  it("a volunteer's recents: the estimate of a heavy volunteer's, the exact count of a light one's", async () => {
    const heavy = await api.get(`/users/${f.volunteer.user.id}/recents?page_size=10`, { token: f.volunteer.token });
    expect(heavy.body.recents).toHaveLength(10);
    expect(meta(heavy.body, "recents")).toMatchObject({ count_source: "estimate", next_page: 2 });
    expect(meta(heavy.body, "recents").count).toBeGreaterThanOrEqual(ESTIMATE_THRESHOLD);
    const light = await api.get(`/users/${f.other.user.id}/recents?page_size=2`, { token: f.other.token });
    expect(meta(light.body, "recents")).toMatchObject({ count: 3, count_source: "exact", page_count: 2, next_page: 2 });
    const lastOfLight = await api.get(`/users/${f.other.user.id}/recents?page_size=2&page=2`, { token: f.other.token });
    expect(lastOfLight.body.recents).toHaveLength(1);
    expect(meta(lastOfLight.body, "recents")).toMatchObject({ count: 3, next_page: null });
  });

  it("last_id that is not an id is a 422 with a JSON error", async () => {
    for (const bad of ["abc", "1.5", "-1", "0", "99999999999", "1e3", "%00"]) {
      const res = await api.get(`/classifications/project?project_id=${f.project.id}&last_id=${bad}`, { token: f.owner.token });
      expect(res.status, bad).toBe(422);
      expect(res.body.errors[0].message, bad).toMatch(/last_id/);
    }
  });
});
