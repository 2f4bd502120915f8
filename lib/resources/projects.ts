import { type RECORDED_PROJECT_FIELDS, recordAdminChanges } from "@/lib/domain/admin-actions";
import { z } from "zod";
import { ANONYMOUS, type Actor } from "@/lib/auth/actor";
import type { Prisma, Project } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db";
import { forbidden, AppError, unprocessable } from "@/lib/errors";
import { parseBooleanParam, parseIdList, parseIdValue } from "@/lib/text/params";
import { duplicateSubjectSet } from "@/lib/domain/subject-set-members";
import { releaseUploads } from "@/lib/domain/subject-limit";
import { prismaSql } from "@/lib/db/sql";
import { canOnProject, projectReadScope } from "@/lib/policies/project-policy";
import {
  ORGANIZATION_VISIBILITY_SELECT,
  organizationReadScope,
  organizationVisibleTo,
  type OrganizationVisibility,
} from "@/lib/policies/organization-policy";
import { organizationQueryInclude, serializeOrganization } from "./organization-wire";
import { projectRoles, serializeProjectRole } from "./project-roles";
import type { IncludeDef, ResourceDef } from "@/lib/http/resource-def";
import type { Tx } from "@/lib/db/types";
import { users } from "./users";
import { iso, userLink } from "./wire";
import { slugFor } from "@/lib/text/slug";
import { deleteMediaOf, mediaInclude, mediaLink, mediaLinkTemplates } from "./media";
import { containsIgnoringCase } from "@/lib/db/like";

type ProjectRow = Project & {
  owner: { id: number; login: string; displayName: string };
  roles: { id: number }[];
  organizations: { organizationId: number; organization: OrganizationVisibility }[];
  workflows: { id: number; active: boolean }[];
  subjectSets: { id: number }[];
};

const ZGuideItem = z.object({ image: z.string().nullish(), explanation: z.string().nullish() }).loose();
const ZTeamMember = z
  .object({ name: z.string().nullish(), bio: z.string().nullish(), twitter: z.string().nullish(), institution: z.string().nullish() })
  .loose();
const ZUrl = z
  .object({ url: z.string().max(2000), label: z.string().max(255).nullish(), path: z.string().nullish(), site: z.string().nullish() })
  .loose();
const text = (max = 100_000) => z.string().max(max);

const projectFields = {
  display_name: z.string().trim().min(1, "display_name can't be blank").max(255),
  title: text(255),
  description: text(),
  introduction: text(),
  science_case: text(),
  faq: text(),
  result: text(),
  education_content: text(),
  workflow_description: text(),
  researcher_quote: text(),
  background_image: z.string().max(2000).nullable(),
  avatar: z.string().max(2000).nullable(),
  primary_language: z.string().min(2).max(20),
  available_languages: z.array(z.string().max(20)).max(200),
  guide: z.array(ZGuideItem).max(1000),
  team_members: z.array(ZTeamMember).max(1000),
  urls: z.array(ZUrl).max(100),
  tags: z.array(z.string().max(100)).max(100),
  configuration: z.record(z.string(), z.unknown()),
  private: z.boolean(),
  beta: z.boolean(),
  live: z.boolean(),
  approved: z.boolean(),
  launch_approved: z.boolean(),
  beta_approved: z.boolean(),
  featured: z.boolean(),
  // null while the project runs; paused or finished (the established platform's states).
  state: z.enum(["paused", "finished"]).nullable(),
  beta_requested: z.boolean(),
  launch_requested: z.boolean(),
  mobile_friendly: z.boolean(),
};

const ZLinkIds = z.array(z.union([z.string(), z.number()])).max(1000);
const ZLinks = z.strictObject({ workflows: ZLinkIds.optional(), subject_sets: ZLinkIds.optional() }).optional();

export const ZCreateProject = z
  .strictObject({ ...projectFields, primary_language: projectFields.primary_language.default("en"), links: ZLinks })
  .partial()
  .required({ display_name: true });
export const ZUpdateProject = z.strictObject({ ...projectFields, links: ZLinks }).partial();
type TProjectInput = z.infer<typeof ZUpdateProject>;

// Approval is the admins' (the established platform's admin_allowed): an owner asks with beta_requested or
// launch_requested. `beta` is this API's other name of beta_approved (one column), so it is refused alike.
const ADMIN_ONLY = ["approved", "launch_approved", "beta_approved", "beta", "featured"] as const;

/** A comma-separated tags parameter: trimmed, lower-cased, without empties (a 422 when none is left). */
export function tagList(raw: string): string[] {
  const tags = [
    ...new Set(
      raw
        .split(",")
        .map((t) => t.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  if (!tags.length) throw unprocessable("tags must be one or more comma-separated tags");
  return tags;
}

function columns(input: TProjectInput): Prisma.ProjectUncheckedUpdateInput {
  return {
    displayName: input.display_name,
    title: input.title,
    description: input.description,
    introduction: input.introduction,
    scienceCase: input.science_case,
    faq: input.faq,
    result: input.result,
    educationContent: input.education_content,
    workflowDescription: input.workflow_description,
    researcherQuote: input.researcher_quote,
    backgroundImage: input.background_image,
    avatar: input.avatar,
    primaryLanguage: input.primary_language,
    availableLanguages: input.available_languages,
    guide: input.guide as Prisma.InputJsonValue | undefined,
    teamMembers: input.team_members as Prisma.InputJsonValue | undefined,
    urls: input.urls as Prisma.InputJsonValue | undefined,
    tags: input.tags?.map((t) => t.trim().toLowerCase()).filter(Boolean),
    configuration: input.configuration as Prisma.InputJsonValue | undefined,
    private: input.private,
    beta: input.beta_approved ?? input.beta,
    live: input.live,
    approved: input.approved,
    launchApproved: input.launch_approved,
    // Launch approval dates the launch (the listing's sort=-launch_date); see also update, which keeps a
    // date set before.
    launchDate: input.launch_approved ? new Date() : undefined,
    featured: input.featured,
    state: input.state,
    betaRequested: input.beta_requested,
    launchRequested: input.launch_requested,
    mobileFriendly: input.mobile_friendly,
  };
}

function checkAdminOnly(actor: Actor, input: TProjectInput) {
  for (const key of ADMIN_ONLY) if (input[key] !== undefined && !actor.user?.admin) throw forbidden(`Only admins may set ${key}`);
}

async function ensureNameFree(tx: Tx, ownerId: number, displayName: string, exceptId?: number) {
  const clash = await tx.project.findFirst({
    where: { ownerId, displayName, NOT: exceptId ? { id: exceptId } : undefined },
    select: { id: true },
  });
  if (clash) throw new AppError("bad_request", "display_name has already been taken by another of the owner's projects");
}

// The JSON columns hold what the schemas above accepted (written through them, or copied by copyProject):
// the serializer says so, and the browser's wire types (components/ui/wire-types.ts) read these shapes.
type StoredJson = {
  guide: z.infer<typeof ZGuideItem>[];
  team_members: z.infer<typeof ZTeamMember>[];
  urls: z.infer<typeof ZUrl>[];
  configuration: Record<string, unknown>;
};

export function serializeProject(p: ProjectRow, actor: Actor = ANONYMOUS) {
  return {
    id: String(p.id),
    display_name: p.displayName,
    slug: p.slug,
    title: p.title || p.displayName,
    description: p.description,
    introduction: p.introduction,
    science_case: p.scienceCase,
    faq: p.faq,
    result: p.result,
    education_content: p.educationContent,
    workflow_description: p.workflowDescription,
    researcher_quote: p.researcherQuote,
    background_image: p.backgroundImage,
    avatar: p.avatar,
    primary_language: p.primaryLanguage,
    available_languages: p.availableLanguages,
    guide: p.guide as StoredJson["guide"],
    team_members: p.teamMembers as StoredJson["team_members"],
    urls: p.urls as StoredJson["urls"],
    tags: p.tags,
    configuration: p.configuration as StoredJson["configuration"],
    private: p.private,
    beta: p.beta,
    approved: p.approved,
    live: p.live,
    launch_approved: p.launchApproved,
    beta_approved: p.beta,
    beta_requested: p.betaRequested,
    launch_requested: p.launchRequested,
    launch_date: p.launchDate ? iso(p.launchDate) : null,
    featured: p.featured,
    state: p.state,
    mobile_friendly: p.mobileFriendly,
    completeness: p.completeness,
    activity: p.activity,
    classifiers_count: p.classifiersCount,
    classifications_count: p.classificationsCount,
    subjects_count: p.subjectsCount,
    retired_subjects_count: p.retiredSubjectsCount,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
    href: `/projects/${p.id}`,
    links: {
      owner: userLink(p.owner),
      workflows: p.workflows.map((w) => String(w.id)),
      active_workflows: p.workflows.filter((w) => w.active).map((w) => String(w.id)),
      subject_sets: p.subjectSets.map((s) => String(s.id)),
      project_roles: p.roles.map((r) => String(r.id)),
      organizations: p.organizations.filter((o) => organizationVisibleTo(actor, o.organization)).map((o) => String(o.organizationId)),
      avatar: mediaLink("projects", p.id, "avatar"),
      background: mediaLink("projects", p.id, "background"),
      attached_images: mediaLink("projects", p.id, "attached_images"),
    },
  };
}

export const projects: ResourceDef<ProjectRow> = {
  type: "projects",
  table: "projects",
  model: "project",
  tokenScopes: { read: "none", write: "project" },
  queryInclude: {
    owner: { select: { id: true, login: true, displayName: true } },
    roles: { select: { id: true }, orderBy: { id: "asc" } },
    organizations: {
      select: { organizationId: true, organization: { select: ORGANIZATION_VISIBILITY_SELECT } },
      orderBy: { organizationId: "asc" },
    },
    workflows: { select: { id: true, active: true }, orderBy: { id: "asc" } },
    subjectSets: { select: { id: true }, orderBy: { id: "asc" } },
  },
  serialize: serializeProject,
  linkTemplates: {
    owner: { href: "/{projects.owner.href}", type: "owners" },
    workflows: { href: "/workflows?project_id={projects.id}", type: "workflows" },
    active_workflows: { href: "/workflows?project_id={projects.id}&active=true", type: "active_workflows" },
    subject_sets: { href: "/subject_sets?project_id={projects.id}", type: "subject_sets" },
    subjects: { href: "/subjects?project_id={projects.id}", type: "subjects" },
    classifications: { href: "/classifications?project_id={projects.id}", type: "classifications" },
    project_roles: { href: "/project_roles?project_id={projects.id}", type: "project_roles" },
    organizations: { href: "/organizations?project_id={projects.id}", type: "organizations" },
    ...mediaLinkTemplates("projects", ["avatar", "background", "attached_images"]),
  },
  includes: {
    // As the established platform: include=avatar,background,owners fills linked.avatars, linked.backgrounds
    // and linked.owners.
    avatar: mediaInclude("projects", "avatar"),
    background: mediaInclude("projects", "background"),
    attached_images: mediaInclude("projects", "attached_images"),
    owners: {
      // Under linked.owners, the type of the projects.owner link template (as the established platform).
      type: "owners",
      load: async (rows, actor) => {
        const owners = await db().user.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.ownerId))] } } });
        return owners.map((u) => ({
          record: users.serialize(u, actor),
          parentIds: rows.filter((r) => r.ownerId === u.id).map((r) => r.id),
        }));
      },
    },
    project_roles: {
      type: "project_roles",
      load: async (rows, actor) => {
        // Only the roles this actor may see (its own, or all of projects it edits).
        const roles = await db().projectRole.findMany({
          where: { AND: [{ projectId: { in: rows.map((r) => r.id) } }, await projectRoles.readScope(actor)] },
          include: projectRoles.queryInclude,
          orderBy: { id: "asc" },
        });
        return roles.map((r) => ({ record: serializeProjectRole(r as never), parentIds: [r.projectId] }));
      },
    },
    organizations: {
      type: "organizations",
      load: async (rows, actor) => {
        const ids = new Set(rows.map((r) => r.id));
        const orgs = await db().organization.findMany({
          where: { AND: [{ projects: { some: { projectId: { in: [...ids] } } } }, organizationReadScope(actor)] },
          include: organizationQueryInclude,
          orderBy: { id: "asc" },
        });
        return orgs.map((o) => ({
          record: serializeOrganization(o as never, actor),
          parentIds: (o as unknown as { projects: { projectId: number }[] }).projects.map((p) => p.projectId).filter((id) => ids.has(id)),
        }));
      },
    },
  },
  filters: {
    display_name: (v) => ({ displayName: v }),
    slug: (v) => ({ slug: v.toLowerCase() }),
    search: (v) => ({ displayName: containsIgnoringCase(v) }),
    approved: (v) => ({ approved: parseBooleanParam(v, "approved") }),
    beta: (v) => ({ beta: parseBooleanParam(v, "beta") }),
    live: (v) => ({ live: parseBooleanParam(v, "live") }),
    launch_approved: (v) => ({ launchApproved: parseBooleanParam(v, "launch_approved") }),
    beta_approved: (v) => ({ beta: parseBooleanParam(v, "beta_approved") }),
    beta_requested: (v) => ({ betaRequested: parseBooleanParam(v, "beta_requested") }),
    launch_requested: (v) => ({ launchRequested: parseBooleanParam(v, "launch_requested") }),
    mobile_friendly: (v) => ({ mobileFriendly: parseBooleanParam(v, "mobile_friendly") }),
    featured: (v) => ({ featured: parseBooleanParam(v, "featured") }),
    // As the established platform: live means live and neither paused nor finished.
    state: (v) => {
      if (v === "live") return { live: true, state: null };
      if (v === "paused" || v === "finished") return { state: v };
      throw unprocessable("state must be live, paused or finished");
    },
    complete: (v) => (parseBooleanParam(v, "complete") ? { completeness: { gte: 1 } } : { completeness: { lt: 1 } }),
    // Any of the comma-separated tags, case-insensitively (tags are stored lower-cased by the lab).
    tags: (v) => ({ tags: { hasSome: tagList(v) } }),
    private: (v) => ({ private: parseBooleanParam(v, "private") }),
    owner: (v) => ({ owner: { login: v } }),
    organization_id: (v, actor) => ({
      organizations: { some: { organizationId: { in: parseIdList(v, "organization_id") }, organization: organizationReadScope(actor) } },
    }),
    // Projects in every one of these languages (the primary one or a translation), as the established
    // platform's languages filter (which reads only the translations, so its languages=en misses projects
    // written in English; here it does not).
    languages: (v) => ({
      AND: v
        .split(",")
        .map((l) => l.trim())
        .filter(Boolean)
        .map((l) => {
          const forms = [...new Set([l, l.toLowerCase()])];
          return { OR: [{ primaryLanguage: { in: forms } }, { availableLanguages: { hasSome: forms } }] };
        }),
    }),
    // Projects where the caller holds one of these roles ("my projects"); nothing for anonymous callers.
    current_user_roles: (v, actor) =>
      actor.user
        ? {
            roles: {
              some: {
                userId: actor.user.id,
                roles: {
                  hasSome: v
                    .split(",")
                    .map((r) => r.trim())
                    .filter(Boolean),
                },
              },
            },
          }
        : { id: -1 },
  },
  sortable: {
    id: "id",
    display_name: "displayName",
    created_at: "createdAt",
    updated_at: "updatedAt",
    classifications_count: "classificationsCount",
    subjects_count: "subjectsCount",
    launch_approved: "launchApproved",
    launch_date: "launchDate",
    activity: "activity",
    completeness: "completeness",
    classifiers_count: "classifiersCount",
  },
  readScope: projectReadScope,
  can: (actor, action, row, tx) => (action === "show" ? true : canOnProject(actor, action, row.id, tx)),
  create: {
    schema: ZCreateProject,
    perform: async ({ actor, tx }, input: z.infer<typeof ZCreateProject>) => {
      checkAdminOnly(actor, input);
      const owner = actor.user!;
      await ensureNameFree(tx, owner.id, input.display_name);
      const project = await tx.project.create({
        data: {
          ...(columns(input) as Prisma.ProjectUncheckedCreateInput),
          ownerId: owner.id,
          slug: slugFor(owner.login, input.display_name),
        },
      });
      await tx.projectRole.create({ data: { projectId: project.id, userId: owner.id, roles: ["owner"] } });
      await linkWorkflows(tx, project.id, ids(input.links?.workflows));
      await linkSubjectSets(tx, actor, project.id, ids(input.links?.subject_sets));
      return project.id;
    },
  },
  update: {
    schema: ZUpdateProject,
    perform: async ({ actor, tx }, row, input: TProjectInput) => {
      checkAdminOnly(actor, input);
      const data = columns(input);
      if (row.launchDate) delete data.launchDate;
      if (input.display_name !== undefined && input.display_name !== row.displayName) {
        await ensureNameFree(tx, row.ownerId, input.display_name, row.id);
        data.slug = slugFor(row.owner.login, input.display_name);
      }
      await tx.project.update({ where: { id: row.id }, data });
      await recordAdminChanges(
        tx,
        actor,
        { type: "project", id: row.id },
        {
          approved: row.approved,
          beta_approved: row.beta,
          launch_approved: row.launchApproved,
          featured: row.featured,
          beta_requested: row.betaRequested,
          launch_requested: row.launchRequested,
        },
        {
          approved: input.approved,
          beta_approved: input.beta_approved ?? input.beta,
          launch_approved: input.launch_approved,
          featured: input.featured,
          beta_requested: input.beta_requested,
          launch_requested: input.launch_requested,
        } satisfies Record<(typeof RECORDED_PROJECT_FIELDS)[number], unknown>,
      );
      await linkWorkflows(tx, row.id, ids(input.links?.workflows));
      await linkSubjectSets(tx, actor, row.id, ids(input.links?.subject_sets));
    },
  },
  destroy: async ({ tx }, row) => {
    // A set another project copied from this one lists this project's subjects: their memberships go with
    // the subjects (a cascade), and the copy's count must go down with them.
    await tx.$executeRawUnsafe(
      `UPDATE subject_sets ss SET set_member_subjects_count = ss.set_member_subjects_count - m.n
       FROM (SELECT sms.subject_set_id, count(*)::int AS n FROM subjects s JOIN set_member_subjects sms ON sms.subject_id = s.id
             WHERE s.project_id = $1 GROUP BY 1) m
       WHERE ss.id = m.subject_set_id AND ss.project_id <> $1`,
      row.id,
    );
    // The project's subjects go with it: their uploaders' places under the subject limit are free again.
    await releaseUploads(prismaSql(tx), { projectId: row.id });
    await tx.project.delete({ where: { id: row.id } });
    await deleteMediaOf(tx, "projects", row.id);
  },
  links: {
    workflows: {
      add: async ({ tx }, row, workflowIds) => {
        await linkWorkflows(tx, row.id, workflowIds);
        await tx.project.update({ where: { id: row.id }, data: { updatedAt: new Date() } });
      },
      // Unlinking a workflow or subject set from its project removes it (it cannot exist without one).
      remove: async ({ tx }, row, workflowIds) => {
        await tx.workflow.deleteMany({ where: { projectId: row.id, id: { in: workflowIds } } });
        await tx.project.update({ where: { id: row.id }, data: { updatedAt: new Date() } });
      },
    },
    subject_sets: {
      add: async ({ actor, tx }, row, setIds) => {
        await linkSubjectSets(tx, actor, row.id, setIds);
        await tx.project.update({ where: { id: row.id }, data: { updatedAt: new Date() } });
      },
      remove: async ({ tx }, row, setIds) => {
        await tx.subjectSet.deleteMany({ where: { projectId: row.id, id: { in: setIds } } });
        await tx.project.update({ where: { id: row.id }, data: { updatedAt: new Date() } });
      },
    },
  },
};

const ids = (raw: unknown[] | undefined) => (raw ?? []).map((v) => parseIdValue(v, "links"));

/** Workflows can only be linked to their own project (they are created with it). */
async function linkWorkflows(tx: Tx, projectId: number, workflowIds: number[]) {
  if (!workflowIds.length) return;
  const own = await tx.workflow.count({ where: { projectId, id: { in: workflowIds } } });
  if (own !== new Set(workflowIds).size) throw unprocessable("workflows must be workflows of this project");
}

/**
 * Linking a subject set of another project duplicates it into this one; only sets of projects the actor
 * edits may be linked. Sets of this project are already linked.
 */
async function linkSubjectSets(tx: Tx, actor: Actor, projectId: number, setIds: number[]) {
  for (const setId of new Set(setIds)) {
    const set = await tx.subjectSet.findUnique({ where: { id: setId }, select: { projectId: true } });
    if (!set || !(await canOnProject(actor, "update", set.projectId, tx))) {
      throw unprocessable(`subject_sets: ${setId} is not a subject set of a project you collaborate on`);
    }
    if (set.projectId !== projectId) await duplicateSubjectSet(tx, setId, projectId);
  }
}

/** include=project: the record's project, when the actor may see it. */
export function projectInclude<R extends { id: number; projectId: number }>(): IncludeDef<R> {
  return {
    type: "projects",
    load: async (rows, actor) => {
      const found = await db().project.findMany({
        where: { AND: [{ id: { in: [...new Set(rows.map((r) => r.projectId))] } }, projectReadScope(actor)] },
        include: projects.queryInclude as Prisma.ProjectInclude,
      });
      return found.map((p) => ({
        record: projects.serialize(p as never, actor),
        parentIds: rows.filter((r) => r.projectId === p.id).map((r) => r.id),
      }));
    },
  };
}
