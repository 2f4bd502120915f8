import { z } from "zod";
import type { Prisma, SubjectSet } from "@/lib/generated/prisma/client";
import { unprocessable } from "@/lib/errors";
import { parseIdList, parseIdValue } from "@/lib/text/params";
import { canOnProject, projectReadScope } from "@/lib/policies/project-policy";
import { requireEditableProject } from "@/lib/policies/require-editable-project";
import { addSubjectsToSet, removeSubjectsFromSet } from "@/lib/domain/subject-set-members";
import type { ResourceDef } from "@/lib/http/resource-def";
import type { Tx } from "@/lib/db/types";
import { iso } from "./wire";

type SubjectSetRow = SubjectSet & { workflows: { workflowId: number }[] };

const ZId = z.union([z.string(), z.number()]);
const ZIds = z.array(ZId).max(10_000);
const ZCreate = z.strictObject({
  display_name: z.string().trim().min(1, "display_name can't be blank").max(255),
  metadata: z.record(z.string(), z.unknown()).optional(),
  links: z.strictObject({ project: ZId, workflows: ZIds.optional(), subjects: ZIds.optional() }),
});
const ZUpdate = z.strictObject({
  display_name: z.string().trim().min(1).max(255).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  links: z.strictObject({ workflows: ZIds.optional(), subjects: ZIds.optional() }).optional(),
});

async function linkWorkflows(tx: Tx, set: { id: number; projectId: number }, raw: unknown[]) {
  const ids = [...new Set(raw.map((v) => parseIdValue(v, "workflows")))];
  if (!ids.length) return;
  const found = await tx.workflow.count({ where: { id: { in: ids }, projectId: set.projectId } });
  if (found !== ids.length) throw unprocessable("workflows must be workflows of the subject set's project");
  await tx.workflowSubjectSet.createMany({ data: ids.map((workflowId) => ({ workflowId, subjectSetId: set.id })), skipDuplicates: true });
}

const ids = (raw: unknown[], what: string) => raw.map((v) => parseIdValue(v, what));

/** metadata is the object a create or update gave: the wire says so. */
export function serializeSubjectSet(s: SubjectSetRow) {
  return {
    id: String(s.id),
    display_name: s.displayName,
    metadata: s.metadata as Record<string, unknown>,
    set_member_subjects_count: s.setMemberSubjectsCount,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
    href: `/subject_sets/${s.id}`,
    links: { project: String(s.projectId), workflows: s.workflows.map((w) => String(w.workflowId)) },
  };
}

export const subjectSets: ResourceDef<SubjectSetRow> = {
  type: "subject_sets",
  table: "subject_sets",
  model: "subjectSet",
  tokenScopes: { read: "none", write: "project" },
  queryInclude: { workflows: { select: { workflowId: true }, orderBy: { workflowId: "asc" } } },
  serialize: serializeSubjectSet,
  linkTemplates: {
    project: { href: "/projects/{subject_sets.project}", type: "projects" },
    workflows: { href: "/workflows?subject_set_id={subject_sets.id}", type: "workflows" },
    subjects: { href: "/subjects?subject_set_id={subject_sets.id}", type: "subjects" },
  },
  filters: {
    project_id: (v) => ({ projectId: { in: parseIdList(v, "project_id") } }),
    workflow_id: (v) => ({ workflows: { some: { workflowId: { in: parseIdList(v, "workflow_id") } } } }),
    display_name: (v) => ({ displayName: v }),
  },
  sortable: {
    id: "id",
    display_name: "displayName",
    created_at: "createdAt",
    updated_at: "updatedAt",
    set_member_subjects_count: "setMemberSubjectsCount",
  },
  readScope: (actor) => ({ project: projectReadScope(actor) }),
  can: (actor, action, row, tx) => (action === "show" ? true : canOnProject(actor, "update", row.projectId, tx)),
  create: {
    schema: ZCreate,
    perform: async ({ actor, tx }, input: z.infer<typeof ZCreate>) => {
      const projectId = await requireEditableProject(tx, actor, input.links.project);
      const set = await tx.subjectSet.create({
        data: { projectId, displayName: input.display_name, metadata: (input.metadata ?? {}) as Prisma.InputJsonValue },
      });
      await linkWorkflows(tx, set, input.links.workflows ?? []);
      await addSubjectsToSet(tx, set, ids(input.links.subjects ?? [], "subjects"));
      return set.id;
    },
  },
  update: {
    schema: ZUpdate,
    perform: async ({ tx }, row, input: z.infer<typeof ZUpdate>) => {
      await tx.subjectSet.update({
        where: { id: row.id },
        data: { displayName: input.display_name, metadata: input.metadata as Prisma.InputJsonValue | undefined },
      });
      if (input.links?.workflows) {
        await tx.workflowSubjectSet.deleteMany({ where: { subjectSetId: row.id } });
        await linkWorkflows(tx, row, input.links.workflows);
      }
      if (input.links?.subjects) {
        const wanted = ids(input.links.subjects, "subjects");
        const current = (await tx.setMemberSubject.findMany({ where: { subjectSetId: row.id }, select: { subjectId: true } })).map(
          (m) => m.subjectId,
        );
        await removeSubjectsFromSet(
          tx,
          row.id,
          current.filter((id) => !wanted.includes(id)),
        );
        await addSubjectsToSet(tx, row, wanted);
      }
    },
  },
  destroy: async ({ tx }, row) => {
    await tx.subjectSet.delete({ where: { id: row.id } });
  },
  links: {
    subjects: {
      add: async ({ tx }, row, subjectIds) => void (await addSubjectsToSet(tx, row, subjectIds)),
      remove: async ({ tx }, row, subjectIds) => void (await removeSubjectsFromSet(tx, row.id, subjectIds)),
    },
    workflows: {
      add: async ({ tx }, row, workflowIds) => {
        await linkWorkflows(tx, row, workflowIds);
        await tx.subjectSet.update({ where: { id: row.id }, data: { updatedAt: new Date() } });
      },
      remove: async ({ tx }, row, workflowIds) => {
        await tx.workflowSubjectSet.deleteMany({ where: { subjectSetId: row.id, workflowId: { in: workflowIds } } });
        await tx.subjectSet.update({ where: { id: row.id }, data: { updatedAt: new Date() } });
      },
    },
  },
};
