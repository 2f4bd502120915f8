// Lists walked to their end by id, as the established platform's last_id paging and the Python client's
// walk (Classification.where(scope='project', project_id=...) follows next_href): next_href carries the
// page's last id, never a page number over the same last_id, so no page pays for an offset.
import { describe, expect, it } from "vitest";
import { resolveActor } from "@/lib/auth/actor";
import { db, pool } from "@/lib/db";
import { planPrismaQuery, type PlanNode } from "@/lib/db/query-plan";
import { listRequest, pageQuery } from "@/lib/http/resource-routes";
import type { BaseRow, ResourceDef } from "@/lib/resources/types";
import { call } from "@/test/http";
import { classifiableProject, classificationBody, signedInUser } from "@/test/factories";
import { api } from "@/test/http";
import { projectClassifications } from "./classifications";
import { setMemberSubjects } from "./set-member-subjects";
import { subjects } from "./subjects";

const JSONAPI = "application/vnd.api+json; version=1";

async function walk(first: string, token: string, key: string) {
  const seen: string[] = [];
  const hrefs: string[] = [];
  let href: string | null = first;
  while (href) {
    const res: { status: number; body: Record<string, { id: string }[]> & { meta: Record<string, { next_href: string | null }> } } =
      await call("GET", `/api${href}`, { token, accept: JSONAPI });
    expect(res.status, href).toBe(200);
    seen.push(...res.body[key].map((r) => r.id));
    href = res.body.meta[key].next_href;
    if (href) hrefs.push(href);
  }
  return { seen, hrefs };
}

describe("keyset paging", () => {
  it("a project's classifications: last_id answers those after it in id order; next_href carries the page's last id, previous_href the one asked after", async () => {
    const { owner, project, workflow, subjects } = await classifiableProject(7);
    const v = await signedInUser();
    for (const s of subjects) await api.post("/classifications", classificationBody(workflow, [s.id]), { token: v.token });
    const { seen, hrefs } = await walk(`/classifications/project?project_id=${project.id}&page_size=3`, owner.token, "classifications");
    expect(seen).toHaveLength(7);
    expect([...seen].sort((a, b) => Number(a) - Number(b))).toEqual(seen);
    expect(hrefs).toHaveLength(2);
    for (const h of hrefs) {
      expect(h).toMatch(/last_id=\d+/);
      expect(h).not.toMatch(/[?&]page=/);
    }
    const after = seen[2];
    const page = await call("GET", `/api/classifications/project?project_id=${project.id}&last_id=${after}&page_size=3`, {
      token: owner.token,
      accept: JSONAPI,
    });
    expect(page.body.classifications.map((c: { id: string }) => c.id)).toEqual(seen.slice(3, 6));
    const meta = page.body.meta.classifications;
    expect(new URL(meta.next_href, "http://x").searchParams.get("last_id")).toBe(seen[5]);
    expect(new URL(meta.previous_href, "http://x").searchParams.get("last_id")).toBe(after);
    // last_id without project_id is refused, as there.
    expect((await call("GET", `/api/classifications/project?last_id=${after}`, { token: owner.token, accept: JSONAPI })).status).toBe(422);
  });

  it("subjects and set member subjects walk the same way; a list sorted otherwise pages by number", async () => {
    const { owner, project, set } = await classifiableProject(5);
    const subjects = await walk(`/subjects?project_id=${project.id}&page_size=2`, owner.token, "subjects");
    expect(subjects.seen).toHaveLength(5);
    expect(subjects.hrefs.every((h) => /last_id=/.test(h) && !/[?&]page=/.test(h))).toBe(true);
    const members = await walk(`/set_member_subjects?subject_set_id=${set.id}&page_size=2`, owner.token, "set_member_subjects");
    expect(members.seen).toHaveLength(5);
    expect(members.hrefs.every((h) => /last_id=/.test(h))).toBe(true);
    const byNewest = await walk(`/subjects?project_id=${project.id}&page_size=2&sort=-id`, owner.token, "subjects");
    expect(byNewest.seen).toEqual([...subjects.seen].reverse());
    expect(byNewest.hrefs.every((h) => /[?&]page=\d/.test(h))).toBe(true);
  });
});

/** The nodes from the plan's root down to the first scan of `relation`. */
function pathTo(plan: PlanNode, relation: string): PlanNode[] | null {
  if (plan["Relation Name"] === relation) return [plan];
  for (const child of plan.Plans ?? []) {
    const below = pathTo(child, relation);
    if (below) return [plan, ...below];
  }
  return null;
}

describe("keyset pages read an index range in order", () => {
  it("a project's classifications and subjects and a set's members: after last_id, no sort of the scope and no offset", async () => {
    // The scope walked is a hundredth of each table, interleaved with another project's records: read in
    // the table's own id order, a page would cost a hundred rows for each of its own.
    const { owner, project, set } = await classifiableProject(1);
    const crowd = await classifiableProject(1);
    const N = 300;
    await pool().query(
      `WITH s AS (INSERT INTO subjects (project_id, metadata, locations) SELECT CASE WHEN i % 100 = 0 THEN $1::int
        ELSE $2::int END, '{}', '[]' FROM generate_series(1, $3::int) AS i RETURNING id, project_id)
       INSERT INTO set_member_subjects (subject_set_id, subject_id) SELECT CASE WHEN s.project_id = $1 THEN $4::int ELSE $5::int END, s.id FROM s`,
      [project.id, crowd.project.id, N * 100, set.id, crowd.set.id],
    );
    await pool().query(
      `INSERT INTO classifications (project_id, workflow_id, user_id, subject_ids, annotations, metadata, completed, workflow_version, updated_at)
       SELECT CASE WHEN i % 100 = 0 THEN $1::int ELSE $2::int END, CASE WHEN i % 100 = 0 THEN $3::int
         ELSE $4::int END, NULL, '{}', '[]', '{}', true, '1.1', now()
       FROM generate_series(1, $5::int) AS i`,
      [project.id, crowd.project.id, crowd.workflow.id, crowd.workflow.id, N * 100],
    );
    await pool().query("ANALYZE subjects; ANALYZE set_member_subjects; ANALYZE classifications");
    const actor = await resolveActor(new Request("http://x", { headers: { authorization: `Bearer ${owner.token}` } }));
    const cases: [ResourceDef<BaseRow>, string, string, string, string][] = [
      [
        projectClassifications as never,
        "classifications",
        `project_id=${project.id}`,
        "classifications",
        "classifications_project_id_id_idx",
      ],
      [subjects as never, "subjects", `project_id=${project.id}`, "subjects", "subjects_project_id_id_idx"],
      [
        setMemberSubjects as never,
        "set_member_subjects",
        `subject_set_id=${set.id}`,
        "set_member_subjects",
        "set_member_subjects_subject_set_id_id_idx",
      ],
    ];
    for (const [def, table, filter, relation, index] of cases) {
      const ids = (
        await db().$queryRawUnsafe<{ id: number }[]>(`SELECT id FROM ${table} WHERE ${filter.replace("=", " = ")} ORDER BY id`)
      ).map((r) => r.id);
      expect(ids.length, table).toBeGreaterThanOrEqual(N);
      const { paging, where, orderBy } = await listRequest(
        def,
        new URL(`http://x/api/${table}?${filter}&last_id=${ids[100]}&page_size=100`),
        actor,
      );
      const { sql, plan } = await planPrismaQuery((client) =>
        (client as unknown as Record<string, { findMany(a: object): Promise<unknown> }>)[def.model].findMany(
          pageQuery(def, paging, where, orderBy),
        ),
      );
      expect(sql, table).not.toMatch(/OFFSET/i);
      const path = pathTo(plan, relation)!;
      expect(
        path.map((n) => n["Node Type"]),
        table,
      ).not.toContain("Sort");
      expect(
        path.map((n) => n["Node Type"]),
        table,
      ).not.toContain("Incremental Sort");
      const scan = path[path.length - 1];
      expect(scan["Index Name"], table).toBe(index);
      expect(scan["Index Cond"], table).toMatch(/id > /);
      // And the page itself: the 100 after last_id.
      const page = await api.get(
        `/${table === "classifications" ? "classifications/project" : table}?${filter}&last_id=${ids[100]}&page_size=100`,
        { token: owner.token },
      );
      expect(
        page.body[table].map((r: { id: string }) => Number(r.id)),
        table,
      ).toEqual(ids.slice(101, 201));
    }
  }, 60_000);
});

describe("a set's subjects start at the set", () => {
  it("the first page of a set uploaded after many other subjects does not read the subjects before it", async () => {
    // 30,000 subjects of another project first, then the set's 300: in subject id order, the plan without
    // a bound merged the subjects' primary key from its start with the set's members.
    const { owner, project } = await classifiableProject(1);
    const crowd = await classifiableProject(1);
    const set = (
      await pool().query<{ id: number }>(
        `INSERT INTO subject_sets (project_id, display_name, set_member_subjects_count) VALUES ($1, 'Late', 300) RETURNING id`,
        [project.id],
      )
    ).rows[0];
    await pool().query(
      `WITH s AS (INSERT INTO subjects (project_id, metadata, locations) SELECT $1::int, '{}', '[]' FROM generate_series(1, 30000) RETURNING id)
       INSERT INTO set_member_subjects (subject_set_id, subject_id) SELECT $2::int, id FROM s`,
      [crowd.project.id, crowd.set.id],
    );
    await pool().query(
      `WITH s AS (INSERT INTO subjects (project_id, metadata, locations) SELECT $1::int, '{}', '[]' FROM generate_series(1, 300) RETURNING id)
       INSERT INTO set_member_subjects (subject_set_id, subject_id) SELECT $2::int, id FROM s`,
      [project.id, set.id],
    );
    await pool().query("ANALYZE subjects; ANALYZE set_member_subjects");
    const actor = await resolveActor(new Request("http://x", { headers: { authorization: `Bearer ${owner.token}` } }));
    const { paging, where, orderBy } = await listRequest(
      subjects as never,
      new URL(`http://x/api/subjects?subject_set_id=${set.id}`),
      actor,
    );
    const { plan } = await planPrismaQuery((client) =>
      client.subject.findMany(pageQuery(subjects as never, paging, where, orderBy) as never),
    );
    // Either the subjects' primary key from the set's first subject on, or one probe per member.
    const scan = pathTo(plan, "subjects")!.at(-1)!;
    expect(scan["Index Cond"], JSON.stringify(scan)).toMatch(/id >=|id = /);
    // And the page: the set's first 20.
    const ids = (
      await pool().query<{ id: number }>(
        `SELECT subject_id AS id FROM set_member_subjects WHERE subject_set_id = $1 ORDER BY subject_id LIMIT 20`,
        [set.id],
      )
    ).rows.map((r) => r.id);
    const page = await api.get(`/subjects?subject_set_id=${set.id}`, { token: owner.token });
    expect(page.body.subjects.map((r: { id: string }) => Number(r.id))).toEqual(ids);
    expect(page.body.meta.subjects.count).toBe(300);
  }, 60_000);
});
