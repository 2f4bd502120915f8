import { z } from "zod";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { apiRoute } from "@/lib/http/api-route";
import { forbidden, notFound, unprocessable } from "@/lib/errors";
import { parseIdValue } from "@/lib/text/params";
import { recordBody, requireWriter, showResponse } from "@/lib/http/resource-routes";
import { canOnProject, projectReadScope } from "@/lib/policies/project-policy";
import { projectPreferences } from "@/lib/resources/project-preferences";
import { settingsAfter, ZDesignator, ZPreferenceSettings } from "@/lib/domain/project-preference-settings";

const ZId = z.union([z.string(), z.number()]);
const ZBody = z.strictObject({
  user_id: ZId.optional(),
  project_id: ZId.optional(),
  settings: ZPreferenceSettings.optional(),
  designator: ZDesignator.optional(),
});

/** An id from the body or the query string (both given and different: 422). */
function idFrom(body: unknown, query: string | null, what: string): number {
  const fromBody = body === undefined ? undefined : parseIdValue(body, `project_preferences.${what}`);
  const fromQuery = query === null || query === "" ? undefined : parseIdValue(query, what);
  if (fromBody !== undefined && fromQuery !== undefined && fromBody !== fromQuery)
    throw unprocessable(`${what} differs between the query and the body`);
  const id = fromBody ?? fromQuery;
  if (id === undefined) throw unprocessable(`${what} is required (in project_preferences or the query string)`);
  return id;
}

/**
 * POST /api/project_preferences/update_settings (and the documented POST /api/project_preferencess):
 * sets `settings.workflow_id` and/or `designator.subject_set_chances` of one user's preference on one
 * project, creating the preference when the user has none. The project's owner and collaborators (and
 * admins) may edit anyone's; a volunteer may edit only their own designator chances, never workflow_id.
 */
export const updateProjectPreferenceSettings = apiRoute({ scope: projectPreferences.tokenScopes.write }, async (ctx) => {
  const actor = await ctx.actor();
  requireWriter(actor);
  const body = ZBody.parse(await recordBody(ctx, "project_preferences"));
  const userId = idFrom(body.user_id, ctx.url.searchParams.get("user_id"), "user_id");
  const projectId = idFrom(body.project_id, ctx.url.searchParams.get("project_id"), "project_id");
  if (!body.settings && !body.designator) throw unprocessable("Give settings (workflow_id) or designator (subject_set_chances)");
  const id = await db().$transaction(async (tx) => {
    if (!(await tx.project.findFirst({ where: { AND: [{ id: projectId }, projectReadScope(actor)] }, select: { id: true } }))) {
      throw notFound(`Could not find projects with id='${projectId}'`);
    }
    const editor = await canOnProject(actor, "update", projectId, tx);
    if (!editor && (userId !== actor.user.id || body.settings))
      throw forbidden("Only the project's owner and collaborators may edit these settings");
    if (!(await tx.user.findUnique({ where: { id: userId }, select: { id: true } }))) throw unprocessable(`No user with id '${userId}'`);
    await tx.$executeRawUnsafe(
      `INSERT INTO project_preferences (user_id, project_id, updated_at) VALUES ($1, $2, now()) ON CONFLICT (user_id, project_id) DO NOTHING`,
      userId,
      projectId,
    );
    const [pref] = await tx.$queryRawUnsafe<{ id: number; settings: unknown }[]>(
      `SELECT id, settings FROM project_preferences WHERE user_id = $1 AND project_id = $2 FOR UPDATE`,
      userId,
      projectId,
    );
    const settings = await settingsAfter(tx, { projectId, settings: pref.settings }, body);
    await tx.projectPreference.update({ where: { id: pref.id }, data: { settings: settings as Prisma.InputJsonValue } });
    return pref.id;
  });
  const row = await db().projectPreference.findUniqueOrThrow({ where: { id } });
  return showResponse(projectPreferences, row, ctx, 200, true);
});
