import { db } from "@/lib/db";
import { countList, prismaScopeCounting, splitPage } from "@/lib/http/list-count";
import { forbidden, notFound, unauthorized, unprocessable } from "@/lib/errors";
import { apiRoute } from "@/lib/http/api-route";
import { pageMeta, parsePaging } from "@/lib/http/jsonapi";
import { parseIdList, parseIdValue } from "@/lib/text/params";
import { JSONAPI_TYPE, json } from "@/lib/http/respond";
import { canOnProject, projectReadScope } from "@/lib/policies/project-policy";
import { iso } from "@/lib/resources/wire";

const PARAMS = new Set(["project_id", "user_id", "page", "page_size", "http_cache"]);

/** GET /api/project_preferences/read_settings: the project's volunteers' settings, for its editors. */
export const readProjectPreferenceSettings = apiRoute({ scope: "project" }, async (ctx) => {
  const actor = await ctx.actor();
  if (!actor.user) throw unauthorized("Sign in to read project preference settings");
  const q = ctx.url.searchParams;
  for (const name of q.keys())
    if (!PARAMS.has(name)) throw unprocessable(`Unknown filter '${name}' for read_settings; filters: project_id, user_id`);
  if (!q.get("project_id")) throw unprocessable("project_id is required");
  const projectId = parseIdValue(q.get("project_id")!, "project_id");
  const userIds = q.get("user_id") ? parseIdList(q.get("user_id")!, "user_id") : null;
  const project = await db().project.findFirst({ where: { AND: [{ id: projectId }, projectReadScope(actor)] }, select: { id: true } });
  if (!project) throw notFound(`Could not find projects with id='${projectId}'`);
  if (!(await canOnProject(actor, "update", projectId, db())))
    throw forbidden("Only the project's owner and collaborators may read its volunteers' settings");
  const paging = parsePaging(ctx.url);
  const where = { projectId, ...(userIds ? { userId: { in: userIds } } : {}) };
  const skip = (paging.page - 1) * paging.pageSize;
  const { rows, more } = splitPage(
    await db().projectPreference.findMany({ where, orderBy: { id: "asc" }, ...(skip ? { skip } : {}), take: paging.pageSize + 1 }),
    paging.pageSize,
  );
  const { count, source } = await countList(
    { skipped: skip, rows: rows.length, more },
    prismaScopeCounting((client) => client.projectPreference.findMany({ where, select: { id: true } })),
  );
  return json(
    {
      project_preferences: rows.map((p) => ({
        id: String(p.id),
        settings: p.settings,
        href: `/project_preferences/${p.id}`,
        created_at: iso(p.createdAt),
        updated_at: iso(p.updatedAt),
        links: { user: String(p.userId), project: String(p.projectId) },
      })),
      links: {
        "project_preferences.user": { href: "/users/{project_preferences.user}", type: "users" },
        "project_preferences.project": { href: "/projects/{project_preferences.project}", type: "projects" },
      },
      meta: pageMeta("project_preferences", ctx.url, paging, count, [], { more, source }),
    },
    200,
    {},
    JSONAPI_TYPE,
  );
});
