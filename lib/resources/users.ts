import { type RECORDED_USER_FIELDS, recordAdminChanges } from "@/lib/domain/admin-actions";
import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import type { User } from "@/lib/generated/prisma/client";
import { parseIdList } from "@/lib/text/params";
import { forbidden, unprocessable } from "@/lib/errors";
import { userGroupReadScope } from "@/lib/policies/user-group-policy";
import type { IncludeDef, ResourceDef } from "@/lib/http/resource-def";
import { iso } from "./wire";
import { mediaInclude } from "./media";
import { equalsIgnoringCase } from "@/lib/db/like";
import { endAccessStatement } from "@/lib/auth/user-sessions";
import { subjectLimitOf } from "@/lib/domain/subject-limit";

const TEMPLATES = {
  classifications: { href: "/classifications?user_id={users.id}", type: "classifications" },
  project_preferences: { href: "/project_preferences?user_id={users.id}", type: "project_preferences" },
  collection_preferences: { href: "/collection_preferences?user_id={users.id}", type: "collection_preferences" },
  projects: { href: "/projects?owner={users.login}", type: "projects" },
  collections: { href: "/collections?owner={users.login}", type: "collections" },
  recents: { href: "/users/{users.id}/recents", type: "recents" },
  avatar: { href: "/users/{users.id}/avatar", type: "avatars" },
  profile_header: { href: "/users/{users.id}/profile_header", type: "profile_headers" },
};

/** Fields anyone may see of any user. */
function publicFields(u: User) {
  return {
    id: String(u.id),
    login: u.login,
    display_name: u.displayName,
    credited_name: u.creditedName ?? u.displayName,
    created_at: iso(u.createdAt),
    updated_at: iso(u.updatedAt),
    type: "users",
    href: `/users/${u.id}`,
    avatar_src: u.avatarSrc,
    links: {},
  };
}

/**
 * Every field of the contract's User table: for the user themself and admins. `languages` is one of these
 * private fields, as on the reference platform (its serializer lists it with email among the "me only" ones).
 */
export function serializeFullUser(u: User) {
  return {
    ...publicFields(u),
    email: u.email,
    languages: u.languages,
    global_email_communication: u.globalEmailCommunication,
    project_email_communication: u.projectEmailCommunication,
    beta_email_communication: u.betaEmailCommunication,
    nasa_email_communication: u.nasaEmailCommunication,
    ux_testing_email_communication: u.uxTestingEmailCommunication,
    // The limit the account's uploads are held to: its own, else the default (as the established platform shows it).
    subject_limit: subjectLimitOf(u),
    uploaded_subjects_count: u.uploadedSubjectsCount,
    admin: u.admin,
    login_prompt: u.loginPrompt,
    private_profile: u.privateProfile,
    platform_id: String(u.id),
    upload_whitelist: u.uploadWhitelist,
    valid_email: u.validEmail,
    intervention_notifications: u.interventionNotifications,
    banned: u.banned,
    confirmed_at: iso(u.confirmedAt),
  };
}

const seesAll = (actor: Actor, u: User) => !!actor.user && (actor.user.admin || actor.user.id === u.id);

/** A user as this actor sees them: every field for themself and admins, the public ones for anyone else. */
export function serializeUser(u: User, actor: Actor) {
  return seesAll(actor, u) ? serializeFullUser(u) : publicFields(u);
}

const ZUpdateUser = z.strictObject({
  display_name: z.string().trim().min(1).max(255).optional(),
  credited_name: z.string().max(255).nullable().optional(),
  languages: z.array(z.string().max(20)).max(50).optional(),
  global_email_communication: z.boolean().optional(),
  project_email_communication: z.boolean().optional(),
  beta_email_communication: z.boolean().optional(),
  nasa_email_communication: z.boolean().optional(),
  ux_testing_email_communication: z.boolean().optional(),
  intervention_notifications: z.boolean().optional(),
  private_profile: z.boolean().optional(),
  login_prompt: z.boolean().optional(),
  /** Admins only: a banned user cannot sign in, and their sessions and tokens end at once. */
  banned: z.boolean().optional(),
  /** Admins only: the account's own subject limit (null: the default again), and no limit at all. */
  subject_limit: z.number().int().min(0).max(2_147_483_647).nullable().optional(),
  upload_whitelist: z.boolean().optional(),
  /** Admins only: grants or revokes admin (never one's own: an admin cannot lock themself out). */
  admin: z.boolean().optional(),
  links: z.strictObject({}).optional(),
});

export const users: ResourceDef<User> = {
  type: "users",
  table: "users",
  model: "user",
  tokenScopes: { read: "none", write: "user" },
  serialize: serializeUser,
  linkTemplates: TEMPLATES,
  includes: { avatar: mediaInclude("users", "avatar"), profile_header: mediaInclude("users", "profile_header") } as Record<
    string,
    IncludeDef<User>
  >,
  filters: {
    // One login or several, comma-separated, case-insensitively (as the established platform).
    login: (v) => ({
      OR: v
        .split(",")
        .map((l) => l.trim())
        .filter(Boolean)
        .map((l) => ({ login: l })),
    }),
    // Admins only: an address is private (the established platform drops the filter for others; we refuse it).
    email: (v, actor) => {
      if (!actor.user?.admin) throw forbidden("Only admins may filter users by email");
      return {
        OR: v
          .split(",")
          .map((e) => e.trim())
          .filter(Boolean)
          .map((e) => ({ email: e })),
      };
    },
    display_name: (v) => ({ displayName: equalsIgnoringCase(v) }),
    // The active members of a group the caller may see (the user_groups.users link).
    user_group_id: (v, actor) => ({
      memberships: {
        some: { state: "active", userGroupId: { in: parseIdList(v, "user_group_id") }, userGroup: userGroupReadScope(actor) },
      },
    }),
  },
  sortable: { id: "id", login: "login", display_name: "displayName", created_at: "createdAt", updated_at: "updatedAt" },
  readScope: () => ({}),
  can: (actor, action, u) => action === "show" || seesAll(actor, u),
  update: {
    schema: ZUpdateUser,
    perform: async ({ tx, actor }, row, input: z.infer<typeof ZUpdateUser>) => {
      for (const field of ["banned", "subject_limit", "upload_whitelist", "admin"] as const)
        if (input[field] !== undefined && !actor.user?.admin) throw forbidden(`Only an admin can set ${field}`);
      if (input.admin === false && actor.user?.id === row.id) throw unprocessable("An admin cannot revoke their own admin");
      if (input.banned && actor.user?.id === row.id) throw unprocessable("An admin cannot ban themself");
      if (input.banned) {
        const [sql, params] = endAccessStatement(row.id);
        await tx.$executeRawUnsafe(sql, ...params);
      }
      await tx.user.update({
        where: { id: row.id },
        data: {
          displayName: input.display_name,
          creditedName: input.credited_name,
          languages: input.languages,
          globalEmailCommunication: input.global_email_communication,
          projectEmailCommunication: input.project_email_communication,
          betaEmailCommunication: input.beta_email_communication,
          nasaEmailCommunication: input.nasa_email_communication,
          uxTestingEmailCommunication: input.ux_testing_email_communication,
          interventionNotifications: input.intervention_notifications,
          privateProfile: input.private_profile,
          loginPrompt: input.login_prompt,
          banned: input.banned,
          subjectLimit: input.subject_limit,
          uploadWhitelist: input.upload_whitelist,
          admin: input.admin,
        },
      });
      await recordAdminChanges(
        tx,
        actor,
        { type: "user", id: row.id },
        { banned: row.banned, subject_limit: row.subjectLimit, upload_whitelist: row.uploadWhitelist, admin: row.admin },
        {
          banned: input.banned,
          subject_limit: input.subject_limit,
          upload_whitelist: input.upload_whitelist,
          admin: input.admin,
        } satisfies Record<(typeof RECORDED_USER_FIELDS)[number], unknown>,
      );
    },
  },
};

/** include=user: the record's user (as the actor may see their fields). */
export function userInclude<R extends { id: number; userId: number }>(): IncludeDef<R> {
  return {
    type: "users",
    load: async (rows, actor) => {
      const found = await db().user.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.userId))] } }, orderBy: { id: "asc" } });
      return found.map((u) => ({ record: users.serialize(u, actor), parentIds: rows.filter((r) => r.userId === u.id).map((r) => r.id) }));
    },
  };
}
