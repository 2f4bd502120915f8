import { copyProject, ZCopyProject } from "@/lib/domain/copy-project";
import { db } from "@/lib/db";
import { apiRoute } from "@/lib/http/api-route";
import { readJsonBody } from "@/lib/http/request";
import { parsePathId } from "@/lib/text/params";
import { showResponse } from "@/lib/http/resource-routes";
import { projects } from "@/lib/resources/projects";

/** POST /api/projects/<id>/copy: a template project copied for the caller (201, the new project). */
export const copyProjectRoute = apiRoute({ scope: "project" }, async (ctx) => {
  const id = parsePathId(ctx.params.id, "projects");
  const text = await ctx.req.clone().text();
  const input = ZCopyProject.parse(text.trim() ? await readJsonBody(ctx.req) : {});
  const actor = await ctx.actor();
  const copyId = await db().$transaction((tx) => copyProject(tx, actor, id, input), { timeout: 30_000 });
  const row = await db().project.findUniqueOrThrow({ where: { id: copyId }, include: projects.queryInclude as never });
  return showResponse(projects, row as never, ctx, 201);
});
