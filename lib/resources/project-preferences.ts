import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import type { Prisma, ProjectPreference } from "@/lib/generated/prisma/client";
import { AppError, forbidden, notFound, unprocessable } from "@/lib/errors";
import { parseBooleanParam, parseIdList, parseIdValue } from "@/lib/text/params";
import { canOnProject, projectActionScope, projectReadScope } from "@/lib/policies/project-policy";
import { settingsAfter, ZPreferenceSettings } from "@/lib/domain/project-preference-settings";
import { projectInclude } from "./projects";
import type { ResourceDef } from "@/lib/http/resource-def";
import { userInclude } from "./users";
import { iso } from "./wire";

const ZId = z.union([z.string(), z.number()]);
const ZPreferences = z.record(z.string(), z.unknown());
const ZCreate = z.strictObject({
  email_communication: z.boolean().optional(),
  preferences: ZPreferences.optional(),
  links: z.strictObject({ project: ZId, user: ZId.optional() }),
});
// The owning user edits preferences and email_communication; project editors edit settings (workflow_id).
const ZUpdate = z.strictObject({
  email_communication: z.boolean().optional(),
  preferences: ZPreferences.optional(),
  settings: ZPreferenceSettings.optional(),
  links: z.strictObject({}).optional(),
});

/** preferences and settings are JSON objects (ZPreferences, settingsAfter write them): the wire says so. */
export function serializeProjectPreference(p: ProjectPreference) {
  return {
    id: String(p.id),
    email_communication: p.emailCommunication,
    preferences: p.preferences as Record<string, unknown>,
    settings: p.settings as Record<string, unknown>,
    activity_count: p.activityCount,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
    href: `/project_preferences/${p.id}`,
    links: { user: String(p.userId), project: String(p.projectId) },
  };
}

const ownedBy = (actor: Actor, p: { userId: number }) => !!actor.user && (actor.user.admin || actor.user.id === p.userId);

/**
 * A volunteer's preferences on one project (one per user and project). Visible only to that user (and
 * admins): anyone else gets a 404. The project's owner and collaborators may edit `settings` (only
 * `workflow_id`) of any preference of their project, and see the record they edit in the answer.
 */
export const projectPreferences: ResourceDef<ProjectPreference> = {
  type: "project_preferences",
  table: "project_preferences",
  model: "projectPreference",
  tokenScopes: { read: "project", write: "project" },
  serialize: serializeProjectPreference,
  linkTemplates: {
    user: { href: "/users/{project_preferences.user}", type: "users" },
    project: { href: "/projects/{project_preferences.project}", type: "projects" },
  },
  includes: {
    project: projectInclude(),
    user: userInclude(),
  },
  filters: {
    user_id: (v) => ({ userId: { in: parseIdList(v, "user_id") } }),
    project_id: (v) => ({ projectId: { in: parseIdList(v, "project_id") } }),
    // The established volunteer dashboard (lib-user) lists the projects one has classified on.
    non_null_activity_count: (v) => (parseBooleanParam(v, "non_null_activity_count") ? { activityCount: { gt: 0 } } : {}),
  },
  sortable: { id: "id", created_at: "createdAt", updated_at: "updatedAt" },
  defaultSort: "id",
  readScope: (actor) => {
    if (actor.user?.admin) return {};
    if (!actor.user) return { id: -1 };
    return { userId: actor.user.id };
  },
  writeReadScope: (actor) => {
    if (actor.user?.admin) return {};
    if (!actor.user) return { id: -1 };
    return { OR: [{ userId: actor.user.id }, { project: projectActionScope(actor, "update") }] };
  },
  can: async (actor, action, row, tx) =>
    action !== "destroy" && (ownedBy(actor, row) || (action === "update" && (await canOnProject(actor, "update", row.projectId, tx)))),
  create: {
    schema: ZCreate,
    perform: async ({ actor, tx }, input: z.infer<typeof ZCreate>) => {
      const userId = actor.user!.id;
      if (input.links.user !== undefined && parseIdValue(input.links.user, "links.user") !== userId)
        throw unprocessable("links.user: a project preference always belongs to the current user");
      const projectId = parseIdValue(input.links.project, "links.project");
      if (!(await tx.project.findFirst({ where: { AND: [{ id: projectId }, projectReadScope(actor)] }, select: { id: true } }))) {
        throw notFound(`Could not find projects with id='${projectId}'`);
      }
      const existing = await tx.projectPreference.findUnique({ where: { userId_projectId: { userId, projectId } }, select: { id: true } });
      if (existing)
        throw new AppError(
          "bad_request",
          `You already have a preference for this project (project_preferences/${existing.id}); edit it instead`,
        );
      const created = await tx.projectPreference.create({
        data: {
          userId,
          projectId,
          emailCommunication: input.email_communication ?? false,
          preferences: (input.preferences ?? {}) as Prisma.InputJsonValue,
        },
      });
      return created.id;
    },
  },
  update: {
    schema: ZUpdate,
    perform: async ({ actor, tx }, row, input: z.infer<typeof ZUpdate>) => {
      const personal = input.preferences !== undefined || input.email_communication !== undefined;
      if (personal && !ownedBy(actor, row)) throw forbidden("Only the preference's user may edit preferences and email_communication");
      if (input.settings && !(await canOnProject(actor, "update", row.projectId, tx)))
        throw forbidden("Only the project's owner and collaborators may edit settings");
      await tx.projectPreference.update({
        where: { id: row.id },
        data: {
          emailCommunication: input.email_communication,
          preferences: input.preferences as Prisma.InputJsonValue | undefined,
          settings: input.settings ? ((await settingsAfter(tx, row, { settings: input.settings })) as Prisma.InputJsonValue) : undefined,
        },
      });
    },
  },
};
