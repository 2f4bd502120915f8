import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import type { Classification, Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db";
import { prismaSql } from "@/lib/db/sql";
import { forbidden, unprocessable } from "@/lib/errors";
import { parseIdList } from "@/lib/text/params";
import { canOnProject, PROJECT_PERMISSIONS, projectReadScope } from "@/lib/policies/project-policy";
import { countCompletedClassification, ZAnnotations } from "@/lib/domain/create-classification";
import {
  projectClassificationsCount,
  volunteerCompletedClassificationsCount,
  workflowClassificationsCount,
} from "@/lib/counts/list-counters";
import { filtersWithin, oneId } from "./scope-filters";
import type { ResourceDef } from "@/lib/http/resource-def";
import type { Where } from "@/lib/db/types";
import { iso } from "./wire";

const ZUpdate = z.strictObject({
  annotations: ZAnnotations,
  completed: z.boolean().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  links: z.strictObject({}).optional(),
});

/**
 * Classifications of projects the actor edits (admins: all). Classifications keep no foreign keys (they
 * outlive deleted workflows and projects), so the project ids are looked up first.
 */
async function ofEditableProjects(actor: Actor): Promise<Where> {
  if (actor.user?.admin) return {};
  if (!actor.user) return { id: -1 };
  const roles = await db().projectRole.findMany({
    where: { userId: actor.user.id, roles: { hasSome: [...PROJECT_PERMISSIONS.update] } },
    select: { projectId: true },
  });
  return { projectId: { in: roles.map((r) => r.projectId) } };
}

const own = (actor: Actor): Where => (actor.user ? { userId: actor.user.id } : { id: -1 });

/** The JSON columns hold what the create accepted (ZAnnotations, a metadata object): the wire says so. */
export function serializeClassification(c: Classification) {
  return {
    id: String(c.id),
    completed: c.completed,
    gold_standard: c.goldStandard,
    annotations: c.annotations as z.infer<typeof ZAnnotations>,
    metadata: c.metadata as Record<string, unknown>,
    workflow_version: c.workflowVersion,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
    href: `/classifications/${c.id}`,
    links: {
      project: String(c.projectId),
      workflow: String(c.workflowId),
      user: c.userId === null ? null : String(c.userId),
      user_group: c.userGroupId === null ? null : String(c.userGroupId),
      subjects: c.subjectIds.map(String),
    },
  };
}

const base: ResourceDef<Classification> = {
  keyset: true,
  type: "classifications",
  table: "classifications",
  model: "classification",
  tokenScopes: { read: "classification", write: "classification" },
  serialize: serializeClassification,
  linkTemplates: {
    project: { href: "/projects/{classifications.project}", type: "projects" },
    workflow: { href: "/workflows/{classifications.workflow}", type: "workflows" },
    user: { href: "/users/{classifications.user}", type: "users" },
    subjects: { href: "/subjects/{classifications.subjects}", type: "subjects" },
  },
  filters: {
    project_id: (v) => ({ projectId: { in: parseIdList(v, "project_id") } }),
    workflow_id: (v) => ({ workflowId: { in: parseIdList(v, "workflow_id") } }),
    user_group_id: (v) => ({ userGroupId: { in: parseIdList(v, "user_group_id") } }),
    user_id: (v) => ({ userId: { in: parseIdList(v, "user_id") } }),
    subject_id: (v) => ({ subjectIds: { hasSome: parseIdList(v, "subject_id") } }),
  },
  sortable: { id: "id", created_at: "createdAt", updated_at: "updatedAt" },
  defaultSort: "updated_at",
  // Show: one's own classifications (complete or not) and those of projects one edits (admins: all; an
  // empty clause inside OR would not widen it, so admins get no clause at all).
  readScope: async (actor) => (actor.user?.admin ? {} : { OR: [own(actor), await ofEditableProjects(actor)] }),
  can: (actor, action, row) => action === "show" || (!!actor.user && row.userId === actor.user.id),
  update: {
    schema: ZUpdate,
    perform: async ({ tx }, row, input: z.infer<typeof ZUpdate>) => {
      if (row.completed) throw forbidden("Only incomplete classifications can be modified");
      const completed = input.completed ?? false;
      await tx.classification.update({
        where: { id: row.id },
        data: {
          annotations: input.annotations as Prisma.InputJsonValue,
          completed,
          metadata: input.metadata ? ({ ...(row.metadata as object), ...input.metadata } as Prisma.InputJsonValue) : undefined,
        },
      });
      if (completed) {
        const workflow = await tx.workflow.findUniqueOrThrow({ where: { id: row.workflowId }, select: { retirement: true } });
        const seenBefore = (row.metadata as { seen_before?: boolean }).seen_before === true;
        await countCompletedClassification(prismaSql(tx), {
          id: row.id,
          projectId: row.projectId,
          workflowId: row.workflowId,
          userId: row.userId,
          subjectIds: seenBefore ? [] : row.subjectIds,
          metadata: { ...(row.metadata as object), ...input.metadata },
          retirement: workflow.retirement,
        });
      }
    },
  },
  destroy: async ({ tx }, row) => {
    if (row.completed) throw forbidden("Only incomplete classifications can be deleted");
    await tx.classification.delete({ where: { id: row.id } });
  },
};

/**
 * The caller's completed classifications, of every project or of one (`project_id`), from their daily
 * rollups: no other filter is counted there.
 */
async function countOwnComplete(filters: Record<string, string>, actor: Actor): Promise<number | null> {
  if (!actor.user || !filtersWithin(filters, ["project_id"], false)) return null;
  const projectId = oneId(filters.project_id, "project_id");
  if (filters.project_id !== undefined && projectId === null) return null;
  return volunteerCompletedClassificationsCount(actor.user.id, projectId);
}

/**
 * A project's or a workflow's classifications (`project_id`, `workflow_id`, or both naming the workflow's
 * own project), from their counters, for a caller who sees all of them: one who edits the project, or an
 * admin.
 */
async function countOfProject(filters: Record<string, string>, actor: Actor): Promise<number | null> {
  if (!actor.user || !filtersWithin(filters, ["project_id", "workflow_id"])) return null;
  const projectId = oneId(filters.project_id, "project_id");
  const workflowId = oneId(filters.workflow_id, "workflow_id");
  if ((filters.project_id !== undefined && projectId === null) || (filters.workflow_id !== undefined && workflowId === null)) return null;
  const workflow = workflowId === null ? null : await workflowClassificationsCount(workflowId);
  if (workflowId !== null && (!workflow || (projectId !== null && workflow.projectId !== projectId))) return null;
  const project = projectId ?? workflow!.projectId;
  if (!actor.user.admin && !(await canOnProject(actor, "update", project, db()))) return null;
  return workflow ? workflow.count : projectClassificationsCount(project);
}

/** Show, edit and delete; the plain list is the caller's own complete classifications. */
export const classifications: ResourceDef<Classification> = base;
export const ownCompleteClassifications: ResourceDef<Classification> = {
  ...base,
  readScope: (a) => ({ AND: [own(a), { completed: true }] }),
  countScope: countOwnComplete,
};
export const ownIncompleteClassifications: ResourceDef<Classification> = {
  ...base,
  readScope: (a) => ({ AND: [own(a), { completed: false }] }),
};

/** Classifications of projects the caller edits, with keyset paging by `last_id` (requires project_id). */
export const projectClassifications: ResourceDef<Classification> = {
  ...base,
  defaultSort: "id",
  readScope: ofEditableProjects,
  countScope: countOfProject,
};

/**
 * Gold standard classifications of workflows whose gold standard is public (of projects the caller may see:
 * a private project's stay private), or of projects one edits.
 */
export const goldStandardClassifications: ResourceDef<Classification> = {
  ...base,
  // Public data where a workflow makes it so: read with any token, as the established platform does.
  tokenScopes: { read: "none", write: "classification" },
  readScope: async (a) => {
    if (a.user?.admin) return { goldStandard: true };
    const publicGold = await db().workflow.findMany({
      where: { configuration: { path: ["public_gold_standard"], equals: true }, project: projectReadScope(a) },
      select: { id: true },
    });
    return { AND: [{ goldStandard: true }, { OR: [await ofEditableProjects(a), { workflowId: { in: publicGold.map((w) => w.id) } }] }] };
  },
};

export function requireProjectIdWithLastId(url: URL) {
  if (url.searchParams.get("last_id") && !url.searchParams.get("project_id")) throw unprocessable("last_id requires project_id");
}
