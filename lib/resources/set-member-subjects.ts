import { z } from "zod";
import type { SetMemberSubject } from "@/lib/generated/prisma/client";
import { readDb } from "@/lib/db";
import { forbidden, notFound, unprocessable } from "@/lib/errors";
import { parseIdList, parseIdValue } from "@/lib/text/params";
import { canOnProject, projectReadScope } from "@/lib/policies/project-policy";
import { addSubjectsToSet, removeSubjectsFromSet } from "@/lib/domain/subject-set-members";
import { filtersWithin, oneId } from "./scope-filters";
import type { ResourceDef } from "@/lib/http/resource-def";
import { iso } from "./wire";

// A subject's membership of a subject set, as the established platform's /set_member_subjects: listed by
// set or subject, created and removed by the project's editors (the set's count moves with it), and its
// `priority` (the order of prioritized workflows) edited. Visible with the set's project.

type Row = SetMemberSubject & { subjectSet: { projectId: number } };

const ZId = z.union([z.string(), z.number()]);
const ZCreate = z.strictObject({
  priority: z.number().finite().nullable().optional(),
  links: z.strictObject({
    subject: ZId,
    subject_set: ZId,
    retired_workflows: z.array(ZId).max(0, "retired_workflows are set through /workflows/<id>/retired_subjects").optional(),
  }),
});
const ZUpdate = z.strictObject({ priority: z.number().finite().nullable(), links: z.strictObject({}).optional() });

export const setMemberSubjects: ResourceDef<Row> = {
  keyset: true,
  type: "set_member_subjects",
  table: "set_member_subjects",
  model: "setMemberSubject",
  tokenScopes: { read: "none", write: "project" },
  queryInclude: { subjectSet: { select: { projectId: true } } },
  serialize: (m) => ({
    id: String(m.id),
    priority: m.priority,
    created_at: iso(m.createdAt),
    updated_at: iso(m.updatedAt),
    href: `/set_member_subjects/${m.id}`,
    links: { subject: String(m.subjectId), subject_set: String(m.subjectSetId), retired_workflows: [] },
  }),
  linkTemplates: {
    subject: { href: "/subjects/{set_member_subjects.subject}", type: "subjects" },
    subject_set: { href: "/subject_sets/{set_member_subjects.subject_set}", type: "subject_sets" },
  },
  filters: {
    subject_set_id: (v) => ({ subjectSetId: { in: parseIdList(v, "subject_set_id") } }),
    subject_id: (v) => ({ subjectId: { in: parseIdList(v, "subject_id") } }),
  },
  sortable: { id: "id", priority: "priority", created_at: "createdAt", updated_at: "updatedAt" },
  readScope: (actor) => ({ subjectSet: { project: projectReadScope(actor) } }),
  // A set's members, counted by the set (every membership change moves it in the same transaction), for
  // whoever sees the set's project: they see every member.
  countScope: async (filters, actor) => {
    const setId = filtersWithin(filters, ["subject_set_id"]) ? oneId(filters.subject_set_id, "subject_set_id") : null;
    if (setId === null) return null;
    const set = await readDb().subjectSet.findFirst({
      where: { id: setId, project: projectReadScope(actor) },
      select: { setMemberSubjectsCount: true },
    });
    return set?.setMemberSubjectsCount ?? null;
  },
  can: (actor, action, row, tx) => (action === "show" ? true : canOnProject(actor, "update", row.subjectSet.projectId, tx)),
  create: {
    schema: ZCreate,
    perform: async ({ actor, tx }, input: z.infer<typeof ZCreate>) => {
      const setId = parseIdValue(input.links.subject_set, "links.subject_set");
      const subjectId = parseIdValue(input.links.subject, "links.subject");
      const set = await tx.subjectSet.findFirst({
        where: { AND: [{ id: setId }, { project: projectReadScope(actor) }] },
        select: { id: true, projectId: true },
      });
      if (!set) throw notFound(`Could not find subject_sets with id='${setId}'`);
      if (!(await canOnProject(actor, "update", set.projectId, tx)))
        throw forbidden("Only the project's owner and collaborators may add subjects to its sets");
      if (
        await tx.setMemberSubject.findUnique({
          where: { subjectSetId_subjectId: { subjectSetId: setId, subjectId } },
          select: { id: true },
        })
      ) {
        throw unprocessable("The subject is already in this subject set");
      }
      await addSubjectsToSet(tx, set, [subjectId]);
      const row = await tx.setMemberSubject.update({
        where: { subjectSetId_subjectId: { subjectSetId: setId, subjectId } },
        data: input.priority !== undefined ? { priority: input.priority } : {},
      });
      return row.id;
    },
  },
  update: {
    schema: ZUpdate,
    perform: async ({ tx }, row, input: z.infer<typeof ZUpdate>) => {
      await tx.setMemberSubject.update({ where: { id: row.id }, data: { priority: input.priority } });
    },
  },
  destroy: async ({ tx }, row) => {
    await removeSubjectsFromSet(tx, row.subjectSetId, [row.subjectId]);
  },
};
