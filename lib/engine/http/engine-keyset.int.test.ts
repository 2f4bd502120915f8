// The engine API's lists walked to their end (lib/engine/http/engine-paging.ts): last_id answers the
// records after it in id order, Link rel="next" names the next page by the page's last id, every record is
// visited once, and each page is an index range scan (no sort of the workflow's records, no offset).
import { beforeAll, describe, expect, it } from "vitest";
import { pool } from "@/lib/db";
import { planNodes, planSql, type PlanNode } from "@/lib/db/query-plan";
import { engine } from "@/test/engine";
import { classifiableProject } from "@/test/factories";
import { extractsPageSql } from "@/lib/engine/run/engine-data";

const EXTRACTS = 1_234;
const REDUCTIONS = 537;

let f: Awaited<ReturnType<typeof classifiableProject>>;
let other: Awaited<ReturnType<typeof classifiableProject>>;

const config = (id: number) => ({
  id,
  public_extracts: false,
  extractors_config: { q: { type: "question", task_key: "T0" }, b: { type: "question", task_key: "T0" } },
  reducers_config: { n: { type: "count" } },
  rules_config: [],
});

beforeAll(async () => {
  f = await classifiableProject(3);
  other = await classifiableProject(1);
  for (const w of [f, other])
    expect((await engine.post("/workflows", { workflow: config(w.workflow.id) }, w.owner.token)).status).toBe(201);
  // Extracts of two workflows interleaved by id, this one's a hundredth of the table (the walk must keep to
  // its own, and read its own by index: the table in id order would cost a hundred rows for each of its
  // own), over three subjects, two extractors and a few volunteers; classification ids made up (extracts
  // keep no foreign key, but other test files make up ids too: these are taken from the classifications'
  // own sequence, so nothing else in the run has them).
  const { rows: reserved } = await pool().query<{ base: string }>(
    `SELECT setval(pg_get_serial_sequence('classifications', 'id'), nextval(pg_get_serial_sequence('classifications', 'id')) + $1::int) - $1::int AS base`,
    [EXTRACTS * 100],
  );
  await pool().query(
    `INSERT INTO extracts (workflow_id, subject_id, user_id, classification_id, classification_at, extractor_key, data)
     SELECT CASE WHEN i % 100 = 0 THEN $1::int ELSE $2::int END, ($3::int[])[1 + (i / 100) % 3], CASE WHEN (i / 100) % 4 = 0 THEN NULL ELSE (i / 100) % 7 END,
            $5::bigint + i, now() - make_interval(secs => i), CASE WHEN (i / 100) % 2 = 0 THEN 'q' ELSE 'b' END, jsonb_build_object('i', i)
     FROM generate_series(1, $4::int) AS i`,
    [f.workflow.id, other.workflow.id, f.subjects.map((s) => s.id), EXTRACTS * 100, reserved[0].base],
  );
  await pool().query(
    `INSERT INTO subject_reductions (workflow_id, subject_id, reducer_key, subgroup, data, updated_at)
     SELECT CASE WHEN i % 100 = 0 THEN $1::int
       ELSE $2::int END, ($3::int[])[1 + (i / 100) % 3], 'n', 'g' || i, jsonb_build_object('classifications', i), now() - make_interval(secs => i)
     FROM generate_series(1, $4::int) AS i`,
    [f.workflow.id, other.workflow.id, f.subjects.map((s) => s.id), REDUCTIONS * 100],
  );
  await pool().query("ANALYZE extracts; ANALYZE subject_reductions");
});

/** Follows Link rel="next" from `first`; every page's records, and the links followed. */
async function walk(first: string, token: string) {
  const ids: number[] = [];
  const links: string[] = [];
  let href: string | null = first;
  while (href) {
    const res = await engine.get(href.replace(/^\/engine/, ""), token);
    expect(res.status, href).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    ids.push(...res.body.map((r: { id: number }) => r.id));
    const link = res.headers.get("link");
    href = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : null;
    if (href) {
      expect(new URL(href, "http://x").searchParams.get("last_id")).toBe(String(res.body[res.body.length - 1].id));
      expect(href).not.toMatch(/[?&]page=/);
      links.push(href);
    }
    expect(links.length).toBeLessThan(200);
  }
  return { ids, links };
}

async function idsOf(table: string, where: string, values: unknown[]): Promise<number[]> {
  return (await pool().query<{ id: number }>(`SELECT id FROM ${table} WHERE ${where} ORDER BY id`, values)).rows.map((r) => r.id);
}

describe("extracts", () => {
  it("a workflow's extracts, walked by last_id: every one once, in id order, none of another workflow's", async () => {
    const want = await idsOf("extracts", "workflow_id = $1", [f.workflow.id]);
    expect(want).toHaveLength(EXTRACTS);
    const { ids, links } = await walk(`/workflows/${f.workflow.id}/extracts?page_size=100`, f.owner.token);
    expect(ids).toEqual(want);
    expect(links).toHaveLength(Math.ceil(want.length / 100) - 1);
    const first = await engine.get(`/workflows/${f.workflow.id}/extracts?page_size=2`, f.owner.token);
    expect(first.body[0]).toMatchObject({
      id: want[0],
      workflow_id: f.workflow.id,
      extractor_key: expect.any(String),
      data: { i: expect.any(Number) },
    });
    expect(first.body[0].created_at).toEqual(expect.any(String));
  });

  it("narrowed to a subject, a volunteer or an extractor, and through the per-extractor list", async () => {
    const subject = f.subjects[1].id;
    for (const [query, where, values] of [
      [`subject_id=${subject}`, "subject_id = $2", [subject]],
      ["user_id=3", "user_id = $2", [3]],
      [`extractor_key=q&subject_id=${subject}`, "extractor_key = 'q' AND subject_id = $2", [subject]],
    ] as const) {
      const want = await idsOf("extracts", `workflow_id = $1 AND ${where}`, [f.workflow.id, ...values]);
      expect((await walk(`/workflows/${f.workflow.id}/extracts?${query}&page_size=37`, f.owner.token)).ids, query).toEqual(want);
    }
    // The established engine's per-extractor list: whole by default, in pages when asked.
    const want = await idsOf("extracts", "workflow_id = $1 AND subject_id = $2 AND extractor_key = 'q'", [f.workflow.id, subject]);
    const whole = await engine.get(`/workflows/${f.workflow.id}/extractors/q/extracts?subject_id=${subject}`, f.owner.token);
    expect(whole.headers.get("link")).toBeNull();
    expect(whole.body.map((e: { id: number }) => e.id).sort((a: number, b: number) => a - b)).toEqual(want);
    expect((await walk(`/workflows/${f.workflow.id}/extractors/q/extracts?subject_id=${subject}&page_size=50`, f.owner.token)).ids).toEqual(
      want,
    );
    const any = await idsOf("extracts", "workflow_id = $1 AND subject_id = $2", [f.workflow.id, subject]);
    expect(
      (await walk(`/workflows/${f.workflow.id}/extractors/extractor/extracts?subject_id=${subject}&last_id=0`, f.owner.token)).ids,
    ).toEqual(any);
  });

  it("each page is a range scan of the (workflow_id, id) index, read in order: no sort, no offset", async () => {
    const after = (await idsOf("extracts", "workflow_id = $1", [f.workflow.id]))[500];
    const { text, values } = extractsPageSql(f.workflow.id, after, 101, {});
    expect(text).not.toMatch(/OFFSET/i);
    const { plan } = await planSql(text, values);
    expect(planNodes(plan).map((n) => n["Node Type"])).not.toContain("Sort");
    const scan = planNodes(plan).find((n: PlanNode) => n["Relation Name"] === "extracts")!;
    expect(scan["Index Name"]).toBe("extracts_workflow_id_id_idx");
    expect(scan["Index Cond"]).toMatch(/workflow_id = .*id > /);
  });
});

describe("reductions", () => {
  it("a workflow's reductions walked from last_id=0; monitoring's newest-first pages link by page number", async () => {
    const want = await idsOf("subject_reductions", "workflow_id = $1", [f.workflow.id]);
    expect((await walk(`/workflows/${f.workflow.id}/reductions?last_id=0&page_size=100`, f.owner.token)).ids).toEqual(want);
    const newest = await engine.get(`/workflows/${f.workflow.id}/reductions?page_size=100`, f.owner.token);
    expect(newest.body).toHaveLength(100);
    const updated = newest.body.map((r: { updated_at: string }) => Date.parse(r.updated_at));
    expect(updated).toEqual([...updated].sort((a, b) => b - a));
    expect(newest.headers.get("link")).toBe(`</engine/workflows/${f.workflow.id}/reductions?page_size=100&page=2>; rel="next"`);
    const lastPage = Math.ceil(want.length / 100);
    const last = await engine.get(`/workflows/${f.workflow.id}/reductions?page_size=100&page=${lastPage}`, f.owner.token);
    expect(last.body).toHaveLength(want.length - 100 * (lastPage - 1));
    expect(last.headers.get("link")).toBeNull();
    const { plan } = await planSql(
      `SELECT r.id FROM subject_reductions r LEFT JOIN subject_workflow_statuses sws ON sws.subject_id = r.subject_id
        AND sws.workflow_id = r.workflow_id WHERE r.workflow_id = $1 AND r.id > $3 ORDER BY r.id LIMIT $2`,
      [f.workflow.id, 101, want[200]],
    );
    expect(planNodes(plan).map((n) => n["Node Type"])).not.toContain("Sort");
    expect(planNodes(plan).find((n) => n["Relation Name"] === "subject_reductions")!["Index Name"]).toBe(
      "subject_reductions_workflow_id_id_idx",
    );
  });

  it("a subject's reductions, whole by default and walked when asked, through both paths", async () => {
    const subject = f.subjects[2].id;
    const want = await idsOf("subject_reductions", "workflow_id = $1 AND subject_id = $2", [f.workflow.id, subject]);
    expect(want.length).toBeGreaterThan(100);
    const whole = await engine.get(`/workflows/${f.workflow.id}/subjects/${subject}/reductions`, f.owner.token);
    expect(whole.body).toHaveLength(want.length);
    expect(whole.headers.get("link")).toBeNull();
    expect((await walk(`/workflows/${f.workflow.id}/subjects/${subject}/reductions?page_size=40`, f.owner.token)).ids).toEqual(want);
    expect((await walk(`/workflows/${f.workflow.id}/reducers/n/reductions?subject_id=${subject}&page_size=40`, f.owner.token)).ids).toEqual(
      want,
    );
  });
});

describe("bad paging parameters", () => {
  it("are 422s with a JSON error, on every list", async () => {
    const w = f.workflow.id;
    const s = f.subjects[0].id;
    for (const path of [
      `/workflows/${w}/extracts`,
      `/workflows/${w}/reductions`,
      `/workflows/${w}/extractors/q/extracts?subject_id=${s}`,
      `/workflows/${w}/reducers/n/reductions?subject_id=${s}`,
      `/workflows/${w}/subjects/${s}/reductions`,
    ]) {
      for (const bad of ["last_id=abc", "last_id=-1", "last_id=1.5", "last_id=99999999999", "last_id=", "page_size=0", "page_size=x"]) {
        const url = `${path}${path.includes("?") ? "&" : "?"}${bad}`;
        const res = await engine.get(url, f.owner.token);
        expect(res.status, url).toBe(422);
        expect(res.body.errors[0].message, url).toMatch(/last_id|page_size/);
      }
    }
    expect((await engine.get(`/workflows/${w}/extracts?sort=id`, f.owner.token)).status).toBe(422);
    // Others' extracts stay theirs.
    expect((await engine.get(`/workflows/${w}/extracts`, other.owner.token)).status).toBe(403);
  });
});
