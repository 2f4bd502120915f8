import type { Actor } from "@/lib/auth/actor";
import { db, pool } from "@/lib/db";
import { subjects } from "@/lib/resources/subjects";
import { notFound, unauthorized, unprocessable } from "@/lib/errors";
import type { ApiContext } from "@/lib/http/api-route";
import { estimatedRows, planSql } from "@/lib/db/query-plan";
import { pageMeta, parsePaging } from "@/lib/http/jsonapi";
import { countList, splitPage } from "@/lib/http/list-count";
import { parseIdList, parsePathId } from "@/lib/text/params";
import { JSONAPI_TYPE, json } from "@/lib/http/respond";
import { iso } from "@/lib/resources/wire";

// GET /api/users/<id>/recents as the established platform: the subjects a volunteer classified lately, one
// record per classification and subject (newest first by default), with the subject's locations. Read from
// the classifications themselves (no second table to keep). Only the volunteer and admins see them.

const PARAMS = new Set(["page", "page_size", "sort", "project_id", "workflow_id", "http_cache", "include"]);
const INCLUDES = ["subject"];

export async function userRecents(ctx: ApiContext, actor: Actor): Promise<Response> {
  const userId = parsePathId(ctx.params.id, "users");
  if (!actor.user) throw unauthorized("Sign in to see your recent classifications");
  if (actor.user.id !== userId && !actor.user.admin) throw notFound(`Could not find users with id='${userId}'`);
  const q = ctx.url.searchParams;
  for (const name of q.keys())
    if (!PARAMS.has(name))
      throw unprocessable(`Unknown filter '${name}' for recents; filters: project_id, workflow_id (and page, page_size, sort)`);
  const sort = q.get("sort") ?? "-created_at";
  if (sort !== "created_at" && sort !== "-created_at") throw unprocessable("recents sort by created_at or -created_at");
  const include = [
    ...new Set(
      (q.get("include") ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  for (const name of include)
    if (!INCLUDES.includes(name)) throw unprocessable(`Cannot include '${name}' with recents; includable: ${INCLUDES.join(", ")}`);
  const paging = parsePaging(ctx.url);
  const projects = q.get("project_id") ? parseIdList(q.get("project_id")!, "project_id") : null;
  const workflows = q.get("workflow_id") ? parseIdList(q.get("workflow_id")!, "workflow_id") : null;
  const where = `c.user_id = $1 AND c.completed AND ($2::int[] IS NULL OR c.project_id = ANY($2)) AND ($3::int[] IS NULL OR c.workflow_id = ANY($3))`;
  const params = [userId, projects, workflows];
  const skip = (paging.page - 1) * paging.pageSize;
  // page_size + 1 records: whether another page follows. No OFFSET for a first page.
  const found = await pool().query(
    `SELECT c.id AS classification_id, c.created_at, c.updated_at, c.project_id, c.workflow_id, s.id AS subject_id, s.locations
     FROM classifications c CROSS JOIN LATERAL unnest(c.subject_ids) WITH ORDINALITY AS x(subject_id, n)
     JOIN subjects s ON s.id = x.subject_id
     WHERE ${where}
     ORDER BY c.id ${sort === "created_at" ? "ASC" : "DESC"}, x.n
     LIMIT $4${skip ? " OFFSET $5" : ""}`,
    [...params, paging.pageSize + 1, ...(skip ? [skip] : [])],
  );
  const { rows, more } = splitPage(found.rows, paging.pageSize);
  // One record per subject of each classification: the planner's classifications are the estimate (most
  // have one subject); below the threshold the subjects are summed exactly.
  const counted = await countList(
    { skipped: skip, rows: rows.length, more },
    {
      estimate: async () => estimatedRows((await planSql(`SELECT 1 FROM classifications c WHERE ${where}`, params)).plan),
      countUpTo: async (cap) => {
        const { rows: r } = await pool().query<{ classifications: number; subjects: number }>(
          `SELECT count(*)::int AS classifications, coalesce(sum(n), 0)::int AS subjects FROM (SELECT cardinality(c.subject_ids) AS n
            FROM classifications c WHERE ${where} LIMIT ${cap}) x`,
          params,
        );
        return r[0].classifications < cap ? r[0].subjects : null;
      },
    },
  );
  const recents = rows.map((r) => {
    const id = `${r.classification_id}-${r.subject_id}`;
    return {
      id,
      created_at: iso(r.created_at),
      updated_at: iso(r.updated_at),
      locations: r.locations,
      href: `/users/${userId}/recents/${id}`,
      links: {
        project: String(r.project_id),
        workflow: String(r.workflow_id),
        subject: String(r.subject_id),
        user: String(userId),
        classification: String(r.classification_id),
      },
    };
  });
  // include=subject (the established project app's "Your recent classifications"): the page's subjects, as
  // the caller may see them now, under linked.subjects.
  let linked: { subjects: object[] } | undefined;
  if (include.includes("subject")) {
    const ids = [...new Set(rows.map((r) => r.subject_id as number))];
    const found = ids.length
      ? await db().subject.findMany({
          where: { AND: [{ id: { in: ids } }, await subjects.readScope(actor)] },
          include: subjects.queryInclude,
          orderBy: { id: "asc" },
        })
      : [];
    linked = { subjects: found.map((row) => subjects.serialize(row as never, actor)) };
  }
  return json(
    {
      recents,
      ...(linked ? { linked } : {}),
      links: {
        "recents.project": { href: "/projects/{recents.project}", type: "projects" },
        "recents.workflow": { href: "/workflows/{recents.workflow}", type: "workflows" },
        "recents.subject": { href: "/subjects/{recents.subject}", type: "subjects" },
      },
      meta: pageMeta("recents", ctx.url, paging, counted.count, [], { more, source: counted.source }),
    },
    200,
    {},
    JSONAPI_TYPE,
  );
}
