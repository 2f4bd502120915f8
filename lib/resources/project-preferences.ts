import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import type { Prisma, ProjectPreference } from "@/lib/generated/prisma/client";
import { forbidden } from "@/lib/errors";
import { parseBooleanParam } from "@/lib/text/params";
import { canOnProject, projectActionScope, projectReadScope } from "@/lib/policies/project-policy";
import { settingsAfter, ZPreferenceSettings } from "@/lib/domain/project-preference-settings";
import { preferenceResource, ZPreferences } from "./preference-resource";
import { projectInclude } from "./projects";

// The owning user edits preferences and email_communication; project editors edit settings (workflow_id).
const ZUpdate = z.strictObject({
  email_communication: z.boolean().optional(),
  preferences: ZPreferences.optional(),
  settings: ZPreferenceSettings.optional(),
  links: z.strictObject({}).optional(),
});

const ownedBy = (actor: Actor, p: { userId: number }) => !!actor.user && (actor.user.admin || actor.user.id === p.userId);

/**
 * A volunteer's preferences on one project (one per user and project). Visible only to that user (and
 * admins): anyone else gets a 404. The project's owner and collaborators may edit `settings` (only
 * `workflow_id`) of any preference of their project, and see the record they edit in the answer.
 */
const projectPreference = preferenceResource({
  type: "project_preferences",
  model: "projectPreference",
  scope: "project",
  parent: "project",
  parentField: "projectId",
  parentModel: "project",
  uniqueKey: "userId_projectId",
  parentReadScope: projectReadScope,
  parentInclude: projectInclude<ProjectPreference>(),
  createFields: { email_communication: z.boolean().optional() },
  createData: (input) => ({ emailCommunication: input.email_communication ?? false }),
  // settings is a JSON object (settingsAfter writes it): the wire says so.
  serializeExtra: (p: ProjectPreference) => ({
    email_communication: p.emailCommunication,
    settings: p.settings as Record<string, unknown>,
    activity_count: p.activityCount,
  }),
  filters: {
    // The established volunteer dashboard (lib-user) lists the projects one has classified on.
    non_null_activity_count: (v) => (parseBooleanParam(v, "non_null_activity_count") ? { activityCount: { gt: 0 } } : {}),
  },
  writeReadScope: (actor) => {
    if (actor.user?.admin) return {};
    if (!actor.user) return { id: -1 };
    return { OR: [{ userId: actor.user.id }, { project: projectActionScope(actor, "update") }] };
  },
  can: async (actor, action, row, tx) =>
    action !== "destroy" && (ownedBy(actor, row) || (action === "update" && (await canOnProject(actor, "update", row.projectId, tx)))),
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
});

export const projectPreferences = projectPreference.def;
export const serializeProjectPreference = projectPreference.serialize;
