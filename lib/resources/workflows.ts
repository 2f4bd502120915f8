import { z } from "zod";
import { db } from "@/lib/db";
import type { Prisma, Workflow } from "@/lib/generated/prisma/client";
import { unprocessable } from "@/lib/errors";
import { parseBooleanParam, parseIdList, parseIdValue } from "@/lib/text/params";
import { canOnProject, projectReadScope } from "@/lib/policies/project-policy";
import { nextVersion, taskGraphErrors, type Tasks, ZRetirement, ZTasks } from "@/lib/domain/workflow-tasks";
import { requireEditableProject } from "@/lib/policies/require-editable-project";
import type { ResourceDef } from "@/lib/http/resource-def";
import type { Tx } from "@/lib/db/types";
import { iso } from "./wire";

export type WorkflowRow = Workflow & { subjectSets: { subjectSetId: number; subjectSet: { setMemberSubjectsCount: number } }[] };

const ZId = z.union([z.string(), z.number()]);
const fields = {
  display_name: z.string().trim().min(1, "display_name can't be blank").max(255),
  tasks: ZTasks,
  first_task: z.string().max(100),
  primary_language: z.string().min(2).max(20),
  configuration: z.record(z.string(), z.unknown()),
  retirement: ZRetirement,
  aggregation: z.record(z.string(), z.unknown()),
  active: z.boolean(),
  grouped: z.boolean(),
  prioritized: z.boolean(),
  pairwise: z.boolean(),
  mobile_friendly: z.boolean(),
};
const ZCreateWorkflow = z
  .strictObject({
    ...fields,
    primary_language: fields.primary_language.default("en"),
    links: z.strictObject({ project: ZId, subject_sets: z.array(ZId).max(1000).optional() }),
  })
  .partial({
    tasks: true,
    first_task: true,
    configuration: true,
    retirement: true,
    aggregation: true,
    active: true,
    grouped: true,
    prioritized: true,
    pairwise: true,
    mobile_friendly: true,
  });
const ZUpdateWorkflow = z
  .strictObject({ ...fields, links: z.strictObject({ subject_sets: z.array(ZId).max(1000).optional() }).optional() })
  .partial();

/** Records the workflow's content at its current version (once per version; a later edit at the same version updates it). */
async function recordVersion(tx: Tx, workflowId: number): Promise<void> {
  await tx.$executeRawUnsafe(
    `INSERT INTO workflow_versions (workflow_id, major_number, minor_number, tasks, first_task, strings, updated_at)
     SELECT id, major_version, minor_version, tasks, first_task, strings, now() FROM workflows WHERE id = $1
     ON CONFLICT (workflow_id, major_number, minor_number) DO UPDATE
       SET tasks = EXCLUDED.tasks, first_task = EXCLUDED.first_task, strings = EXCLUDED.strings, updated_at = now()`,
    workflowId,
  );
}

export function workflowVersion(w: { majorVersion: number; minorVersion: number }): string {
  return `${w.majorVersion}.${w.minorVersion}`;
}

function checkTasks(tasks: z.infer<typeof ZTasks>, firstTask: string) {
  const errors = taskGraphErrors(tasks, firstTask);
  if (errors.length) throw unprocessable(errors.join("; "));
}

/** Links subject sets of the workflow's own project (422 for any other set). */
async function linkSubjectSets(tx: Tx, workflowId: number, projectId: number, rawIds: unknown[]) {
  const ids = [...new Set(rawIds.map((v) => parseIdValue(v, "subject_sets")))];
  if (!ids.length) return;
  const found = await tx.subjectSet.findMany({ where: { id: { in: ids }, projectId }, select: { id: true } });
  if (found.length !== ids.length) throw unprocessable("subject_sets must be subject sets of the workflow's project");
  await tx.workflowSubjectSet.createMany({ data: ids.map((subjectSetId) => ({ workflowId, subjectSetId })), skipDuplicates: true });
}

/** Workflows whose completeness is 1: some subjects, all retired. */
async function completeWorkflowIds(): Promise<number[]> {
  const rows = await db().$queryRaw<{ id: number }[]>`
    SELECT w.id FROM workflows w
    JOIN workflow_subject_sets ws ON ws.workflow_id = w.id
    JOIN subject_sets ss ON ss.id = ws.subject_set_id
    GROUP BY w.id, w.retired_set_member_subjects_count
    HAVING sum(ss.set_member_subjects_count) > 0 AND w.retired_set_member_subjects_count >= sum(ss.set_member_subjects_count)`;
  return rows.map((r) => r.id);
}

/** The JSON columns hold what `fields` accepted (written through them, or copied by copyProject): the wire says so. */
type StoredJson = { retirement: z.infer<typeof ZRetirement>; settings: Record<string, unknown> };

export function serializeWorkflow(w: WorkflowRow) {
  const subjectsCount = w.subjectSets.reduce((n, s) => n + s.subjectSet.setMemberSubjectsCount, 0);
  return {
    id: String(w.id),
    display_name: w.displayName,
    tasks: w.tasks as Tasks,
    first_task: w.firstTask,
    primary_language: w.primaryLanguage,
    configuration: w.configuration as StoredJson["settings"],
    retirement: w.retirement as StoredJson["retirement"],
    aggregation: w.aggregation as StoredJson["settings"],
    active: w.active,
    grouped: w.grouped,
    prioritized: w.prioritized,
    pairwise: w.pairwise,
    mobile_friendly: w.mobileFriendly,
    version: workflowVersion(w),
    content_language: w.primaryLanguage,
    classifications_count: w.classificationsCount,
    subjects_count: subjectsCount,
    retired_set_member_subjects_count: w.retiredSetMemberSubjectsCount,
    completeness: subjectsCount ? Math.min(1, w.retiredSetMemberSubjectsCount / subjectsCount) : 0,
    finished_at: iso(w.finishedAt),
    created_at: iso(w.createdAt),
    updated_at: iso(w.updatedAt),
    href: `/workflows/${w.id}`,
    links: { project: String(w.projectId), subject_sets: w.subjectSets.map((s) => String(s.subjectSetId)) },
  };
}

export const workflows: ResourceDef<WorkflowRow> = {
  type: "workflows",
  table: "workflows",
  model: "workflow",
  tokenScopes: { read: "none", write: "project" },
  sparseFields: true,
  queryInclude: {
    subjectSets: {
      select: { subjectSetId: true, subjectSet: { select: { setMemberSubjectsCount: true } } },
      orderBy: { subjectSetId: "asc" },
    },
  },
  serialize: serializeWorkflow,
  linkTemplates: {
    project: { href: "/projects/{workflows.project}", type: "projects" },
    subject_sets: { href: "/subject_sets?workflow_id={workflows.id}", type: "subject_sets" },
  },
  filters: {
    project_id: (v) => ({ projectId: { in: parseIdList(v, "project_id") } }),
    active: (v) => ({ active: parseBooleanParam(v, "active") }),
    mobile_friendly: (v) => ({ mobileFriendly: parseBooleanParam(v, "mobile_friendly") }),
    display_name: (v) => ({ displayName: v }),
    subject_set_id: (v) => ({ subjectSets: { some: { subjectSetId: { in: parseIdList(v, "subject_set_id") } } } }),
    // As the established platform (completeness 1.0 or below): complete when it has subjects and every one
    // of them is retired, the same figure `completeness` answers.
    complete: async (v) => {
      const ids = await completeWorkflowIds();
      return parseBooleanParam(v, "complete") ? { id: { in: ids } } : { id: { notIn: ids } };
    },
  },
  sortable: {
    id: "id",
    display_name: "displayName",
    created_at: "createdAt",
    updated_at: "updatedAt",
    classifications_count: "classificationsCount",
  },
  readScope: (actor) => ({ project: projectReadScope(actor) }),
  can: (actor, action, row, tx) => (action === "show" ? true : canOnProject(actor, "update", row.projectId, tx)),
  create: {
    schema: ZCreateWorkflow,
    perform: async ({ actor, tx }, input: z.infer<typeof ZCreateWorkflow>) => {
      const projectId = await requireEditableProject(tx, actor, input.links.project);
      const tasks = input.tasks ?? {};
      const firstTask = input.first_task ?? "";
      checkTasks(tasks, firstTask);
      const w = await tx.workflow.create({
        data: {
          projectId,
          displayName: input.display_name,
          tasks: tasks as Prisma.InputJsonValue,
          firstTask,
          primaryLanguage: input.primary_language,
          configuration: (input.configuration ?? {}) as Prisma.InputJsonValue,
          retirement: (input.retirement ?? {}) as Prisma.InputJsonValue,
          aggregation: (input.aggregation ?? {}) as Prisma.InputJsonValue,
          active: input.active,
          grouped: input.grouped,
          prioritized: input.prioritized,
          pairwise: input.pairwise,
          mobileFriendly: input.mobile_friendly,
        },
      });
      await linkSubjectSets(tx, w.id, projectId, input.links.subject_sets ?? []);
      await recordVersion(tx, w.id);
      await tx.project.update({ where: { id: projectId }, data: { updatedAt: new Date() } });
      return w.id;
    },
  },
  update: {
    schema: ZUpdateWorkflow,
    perform: async ({ tx }, row, input: z.infer<typeof ZUpdateWorkflow>) => {
      const tasks = input.tasks ?? (row.tasks as z.infer<typeof ZTasks>);
      const firstTask = input.first_task ?? row.firstTask;
      if (input.tasks !== undefined || input.first_task !== undefined) checkTasks(tasks, firstTask);
      const version = nextVersion(row, { tasks, firstTask });
      await tx.workflow.update({
        where: { id: row.id },
        data: {
          displayName: input.display_name,
          tasks: input.tasks as Prisma.InputJsonValue | undefined,
          firstTask: input.first_task,
          primaryLanguage: input.primary_language,
          configuration: input.configuration as Prisma.InputJsonValue | undefined,
          retirement: input.retirement as Prisma.InputJsonValue | undefined,
          aggregation: input.aggregation as Prisma.InputJsonValue | undefined,
          active: input.active,
          grouped: input.grouped,
          prioritized: input.prioritized,
          pairwise: input.pairwise,
          mobileFriendly: input.mobile_friendly,
          ...version,
        },
      });
      if (input.links?.subject_sets) {
        await tx.workflowSubjectSet.deleteMany({ where: { workflowId: row.id } });
        await linkSubjectSets(tx, row.id, row.projectId, input.links.subject_sets);
      }
      await recordVersion(tx, row.id);
    },
  },
  destroy: async ({ tx }, row) => {
    await tx.workflow.delete({ where: { id: row.id } });
  },
  links: {
    subject_sets: {
      add: async ({ tx }, row, ids) => {
        await linkSubjectSets(tx, row.id, row.projectId, ids);
        await tx.workflow.update({ where: { id: row.id }, data: { updatedAt: new Date() } });
      },
      remove: async ({ tx }, row, ids) => {
        await tx.workflowSubjectSet.deleteMany({ where: { workflowId: row.id, subjectSetId: { in: ids } } });
        await tx.workflow.update({ where: { id: row.id }, data: { updatedAt: new Date() } });
      },
    },
  },
};
