import { z } from "zod";
import type { Prisma, Subject } from "@/lib/generated/prisma/client";
import { readDb, readPool } from "@/lib/db";
import { unprocessable } from "@/lib/errors";
import { parseIdList, parseIdValue } from "@/lib/text/params";
import { canOnProject, projectReadScope } from "@/lib/policies/project-policy";
import { requireEditableProject } from "@/lib/policies/require-editable-project";
import { addSubjectsToSet } from "@/lib/domain/subject-set-members";
import { inCollectionsWhere } from "@/lib/domain/collection-subjects";
import type { QueuedSubject } from "@/lib/domain/subject-queue";
import { parseLocations, ZLocations, type LocationEntry, type SubjectLocations } from "@/lib/text/subject-locations";
import { locationsWithUploadUrls, storedLocations } from "@/lib/domain/subject-uploads";
import { countUploads, releaseUploads, subjectLimitReached } from "@/lib/domain/subject-limit";
import { prismaSql } from "@/lib/db/sql";
import { filtersWithin, oneId } from "./scope-filters";
import type { ResourceDef } from "@/lib/http/resource-def";
import type { Tx, Where } from "@/lib/db/types";
import { iso } from "./wire";
import { deleteMediaOf, mediaInclude, mediaLinkTemplates } from "./media";

export type SubjectRow = Subject & { members: { subjectSetId: number }[] };

const ZId = z.union([z.string(), z.number()]);
const ZMetadata = z.record(z.string(), z.unknown());
export const ZCreateSubject = z.strictObject({
  locations: ZLocations,
  metadata: ZMetadata.optional(),
  external_id: z.string().max(255).nullish(),
  links: z.strictObject({ project: ZId, subject_sets: z.array(ZId).max(100).optional() }),
});
const ZUpdateSubject = z.strictObject({
  locations: ZLocations.optional(),
  metadata: ZMetadata.optional(),
  external_id: z.string().max(255).nullish(),
  links: z.strictObject({}).optional(),
});

// locations hold what storedLocations wrote (their only writer), metadata the object a create or update gave.
export function serializeSubject(s: SubjectRow) {
  return {
    id: String(s.id),
    metadata: s.metadata as Record<string, unknown>,
    locations: s.locations as SubjectLocations,
    external_id: s.externalId,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
    href: `/subjects/${s.id}`,
    links: { project: String(s.projectId), subject_sets: s.members.map((m) => String(m.subjectSetId)) },
  };
}

/**
 * A subject of the volunteer's queue (GET /api/subjects/queued): the subject's record with what the
 * classifier banners it with (retired, seen, finished) and how it was chosen.
 */
export function serializeQueuedSubject(q: QueuedSubject) {
  return {
    id: String(q.id),
    metadata: q.metadata,
    locations: q.locations,
    external_id: q.externalId,
    created_at: iso(q.createdAt),
    updated_at: iso(q.updatedAt),
    href: `/subjects/${q.id}`,
    selected_at: iso(q.selectedAt),
    retired: q.retired,
    already_seen: q.alreadySeen,
    finished_workflow: q.finishedWorkflow,
    user_has_finished_workflow: q.userHasFinishedWorkflow,
    selection_state: q.selectionState,
    links: { project: String(q.projectId), subject_sets: q.subjectSetIds.map(String) },
  };
}

/** Creates one subject (and its set memberships). */
export async function insertSubject(
  tx: Tx,
  userId: number,
  projectId: number,
  input: z.infer<typeof ZCreateSubject>,
  locations: LocationEntry[],
) {
  if (!(await countUploads(prismaSql(tx), userId, 1))) throw await subjectLimitReached(prismaSql(tx), userId);
  const subject = await tx.subject.create({
    data: {
      projectId,
      uploadUserId: userId,
      metadata: (input.metadata ?? {}) as Prisma.InputJsonValue,
      externalId: input.external_id ?? null,
    },
  });
  const { stored } = await storedLocations(subject.id, locations);
  await tx.subject.update({ where: { id: subject.id }, data: { locations: stored as Prisma.InputJsonValue } });
  for (const raw of input.links.subject_sets ?? []) {
    const setId = parseIdValue(raw, "links.subject_sets");
    const set = await tx.subjectSet.findFirst({ where: { id: setId, projectId }, select: { id: true, projectId: true } });
    if (!set) throw unprocessable(`links.subject_sets: ${setId} is not a subject set of the project`);
    await addSubjectsToSet(tx, set, [subject.id]);
  }
  await tx.$executeRawUnsafe(`UPDATE projects SET subjects_count = subjects_count + 1 WHERE id = $1`, projectId);
  return { id: subject.id };
}

/**
 * The subjects of sets (`subject_set_id`): their members, from the first member's subject id on. Read in
 * subject id order, a set's first page otherwise starts at the table's first subject: the planner takes the
 * set's members to be spread evenly over all subjects, so it merges the subjects' primary key, from its
 * start, with the set's members, and a set uploaded after 400,000 others read those 400,000 subjects for
 * its first 20. The bound (one probe of the set's (subject_set_id, subject_id) index per set) starts that
 * scan at the set's first subject. Only a lower bound: a subject uploaded into the set meanwhile has a
 * higher id and is never left out (one of lower id linked to it between the two reads shows from the next
 * request on).
 */
async function inSubjectSets(v: string): Promise<Where> {
  const sets = parseIdList(v, "subject_set_id");
  const members = { members: { some: { subjectSetId: { in: sets } } } };
  const { rows } = await readPool().query<{ first: number | null }>(
    `SELECT min(m.first) AS first FROM unnest($1::int[]) AS s(id), LATERAL (SELECT min(subject_id) AS first FROM set_member_subjects
      WHERE subject_set_id = s.id) m`,
    [sets],
  );
  return rows[0].first === null ? members : { AND: [members, { id: { gte: rows[0].first } }] };
}

export const subjects: ResourceDef<SubjectRow> = {
  keyset: true,
  type: "subjects",
  table: "subjects",
  model: "subject",
  tokenScopes: { read: "none", write: "subject" },
  queryInclude: { members: { select: { subjectSetId: true }, orderBy: { subjectSetId: "asc" } } },
  serialize: serializeSubject,
  present: async (record, row, { written }) => (written ? { ...record, locations: await locationsWithUploadUrls(row.locations) } : record),
  linkTemplates: {
    project: { href: "/projects/{subjects.project}", type: "projects" },
    subject_sets: { href: "/subject_sets?subject_id={subjects.id}", type: "subject_sets" },
    ...mediaLinkTemplates("subjects", ["attached_images"]),
  },
  includes: { attached_images: mediaInclude("subjects", "attached_images") },
  filters: {
    project_id: (v) => ({ projectId: { in: parseIdList(v, "project_id") } }),
    subject_set_id: inSubjectSets,
    workflow_id: (v) => ({
      members: { some: { subjectSet: { workflows: { some: { workflowId: { in: parseIdList(v, "workflow_id") } } } } } },
    }),
    external_id: (v) => ({ externalId: v }),
    // The subjects of collections the caller may see (/subjects?collection_id=, the collections.subjects link).
    collection_id: (v, actor) => inCollectionsWhere(v, actor),
  },
  sortable: { id: "id", created_at: "createdAt", updated_at: "updatedAt" },
  readScope: (actor) => ({ project: projectReadScope(actor) }),
  // A project's subjects, counted by the project (create, import and destroy move it), for whoever sees the
  // project. Not a set's: a set copied from another project lists that project's subjects, which the
  // caller may not see.
  countScope: async (filters, actor) => {
    const projectId = filtersWithin(filters, ["project_id"]) ? oneId(filters.project_id, "project_id") : null;
    if (projectId === null) return null;
    const project = await readDb().project.findFirst({
      where: { AND: [{ id: projectId }, projectReadScope(actor)] },
      select: { subjectsCount: true },
    });
    return project?.subjectsCount ?? null;
  },
  can: (actor, action, row, tx) => (action === "show" ? true : canOnProject(actor, "update", row.projectId, tx)),
  create: {
    schema: ZCreateSubject,
    perform: async ({ actor, tx }, input: z.infer<typeof ZCreateSubject>) => {
      const projectId = await requireEditableProject(tx, actor, input.links.project);
      return (await insertSubject(tx, actor.user!.id, projectId, input, parseLocations(input.locations))).id;
    },
  },
  update: {
    schema: ZUpdateSubject,
    perform: async ({ tx }, row, input: z.infer<typeof ZUpdateSubject>) => {
      const locations = input.locations ? (await storedLocations(row.id, parseLocations(input.locations))).stored : undefined;
      await tx.subject.update({
        where: { id: row.id },
        data: {
          metadata: input.metadata as Prisma.InputJsonValue | undefined,
          externalId: input.external_id,
          locations: locations as Prisma.InputJsonValue | undefined,
        },
      });
    },
  },
  destroy: async ({ tx }, row) => {
    await tx.$executeRawUnsafe(
      `UPDATE subject_sets ss SET set_member_subjects_count = set_member_subjects_count - 1 FROM set_member_subjects sms
        WHERE sms.subject_set_id = ss.id AND sms.subject_id = $1`,
      row.id,
    );
    await releaseUploads(prismaSql(tx), { subjectId: row.id });
    await tx.subject.delete({ where: { id: row.id } });
    await deleteMediaOf(tx, "subjects", row.id);
    await tx.$executeRawUnsafe(`UPDATE projects SET subjects_count = subjects_count - 1 WHERE id = $1`, row.projectId);
  },
};
