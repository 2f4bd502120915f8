import { z } from "zod";
import { db } from "@/lib/db";
import type { Prisma, Tutorial } from "@/lib/generated/prisma/client";
import { forbidden, unprocessable } from "@/lib/errors";
import { parseIdList, parseIdValue } from "@/lib/text/params";
import { projectReadScope } from "@/lib/policies/project-policy";
import { canWriteProjectContent, requireProjectContentWriter } from "@/lib/policies/project-content-policy";
import { ZLanguageCode } from "@/lib/text/language-code";
import { deleteMediaOf, mediaInclude, mediaLink, mediaLinkTemplates } from "./media";
import { DEFAULT_CONTENT_LANGUAGE, ZMediumId } from "./project-content";
import { projectInclude } from "./projects";
import type { IncludeDef, ResourceDef } from "@/lib/http/resource-def";
import type { Tx } from "@/lib/db/types";
import { iso } from "./wire";
import { serializeWorkflow, workflows, type WorkflowRow } from "./workflows";

// A project's tutorials and mini-courses (kind null or "tutorial": a tutorial; "mini-course": a
// mini-course), each in one language, with steps of {content, media} (media naming one of its attached
// images), shown in the workflows linked to it (workflows of the same project only). Reading follows the
// project; the project's editors write them, its translators too in languages other than the primary one.

type TutorialRow = Tutorial & { project: { primaryLanguage: string }; workflows: { workflowId: number }[] };

/** The kinds clients use: null (a tutorial, as all were before kinds existed), "tutorial", "mini-course". */
export const TUTORIAL_KINDS = ["tutorial", "mini-course"] as const;

const ZId = z.union([z.string(), z.number()]);
const ZWorkflowIds = z.array(ZId).max(1000);
const ZStep = z.strictObject({ content: z.string().max(100_000), media: ZMediumId.optional() });
const fields = {
  steps: z.array(ZStep).max(200),
  language: ZLanguageCode,
  kind: z.enum(TUTORIAL_KINDS, { message: "must be null (a tutorial), 'tutorial' or 'mini-course'" }).nullable(),
  display_name: z.string().trim().max(255),
  configuration: z.record(z.string(), z.unknown()),
};
const ZCreate = z
  .strictObject({
    ...fields,
    steps: fields.steps.default([]),
    links: z.strictObject({ project: ZId, workflows: ZWorkflowIds.optional() }),
  })
  .partial({ kind: true, display_name: true, configuration: true });
const ZUpdate = z.strictObject({ ...fields, links: z.strictObject({ workflows: ZWorkflowIds.optional() }) }).partial();

/** Links workflows of the tutorial's own project (422 for any other workflow). */
async function linkWorkflows(tx: Tx, tutorial: { id: number; projectId: number }, raw: unknown[]) {
  const ids = [...new Set(raw.map((v) => parseIdValue(v, "workflows")))];
  if (!ids.length) return;
  const found = await tx.workflow.count({ where: { id: { in: ids }, projectId: tutorial.projectId } });
  if (found !== ids.length) throw unprocessable("workflows must be workflows of the tutorial's project");
  await tx.workflowTutorial.createMany({ data: ids.map((workflowId) => ({ workflowId, tutorialId: tutorial.id })), skipDuplicates: true });
}

const touch = (tx: Tx, id: number) => tx.tutorial.update({ where: { id }, data: { updatedAt: new Date() } });

/** include=workflows: the linked workflows the actor may see. */
const workflowsInclude: IncludeDef<TutorialRow> = {
  type: "workflows",
  load: async (rows, actor) => {
    const ids = [...new Set(rows.flatMap((r) => r.workflows.map((w) => w.workflowId)))];
    const found = (await db().workflow.findMany({
      where: { AND: [{ id: { in: ids } }, await workflows.readScope(actor)] },
      include: workflows.queryInclude as Prisma.WorkflowInclude,
      orderBy: { id: "asc" },
    })) as unknown as WorkflowRow[];
    return found.map((w) => ({
      record: serializeWorkflow(w),
      parentIds: rows.filter((r) => r.workflows.some((l) => l.workflowId === w.id)).map((r) => r.id),
    }));
  },
};

/** steps and configuration hold what `fields` accepted (written through them, or copied by copyProject): the wire says so. */
export function serializeTutorial(t: TutorialRow) {
  return {
    id: String(t.id),
    steps: t.steps as z.infer<typeof fields.steps>,
    language: t.language,
    kind: t.kind,
    display_name: t.displayName,
    configuration: t.configuration as Record<string, unknown>,
    href: `/tutorials/${t.id}`,
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
    links: {
      project: String(t.projectId),
      workflows: t.workflows.map((w) => String(w.workflowId)),
      attached_images: mediaLink("tutorials", t.id, "attached_images"),
    },
  };
}

/** kind=tutorial also finds the tutorials made before kinds existed (kind null); any other kind is exact. */
function kindFilter(kind: string) {
  return kind === "tutorial" ? { OR: [{ kind: null }, { kind: "tutorial" }] } : { kind };
}

export const tutorials: ResourceDef<TutorialRow> = {
  type: "tutorials",
  table: "tutorials",
  model: "tutorial",
  tokenScopes: { read: "none", write: "project" },
  queryInclude: {
    project: { select: { primaryLanguage: true } },
    workflows: { select: { workflowId: true }, orderBy: { workflowId: "asc" } },
  },
  serialize: serializeTutorial,
  // Listed in English unless a language is asked for, as the reference platform and its clients expect.
  listDefaults: { language: DEFAULT_CONTENT_LANGUAGE },
  linkTemplates: {
    project: { href: "/projects/{tutorials.project}", type: "projects" },
    workflows: { href: "/workflows?id={tutorials.workflows}", type: "workflows" },
    ...mediaLinkTemplates("tutorials", ["attached_images"]),
  },
  includes: {
    project: projectInclude(),
    workflows: workflowsInclude,
    attached_images: mediaInclude("tutorials", "attached_images"),
  },
  filters: {
    project_id: (v) => ({ projectId: { in: parseIdList(v, "project_id") } }),
    workflow_id: (v) => ({ workflows: { some: { workflowId: { in: parseIdList(v, "workflow_id") } } } }),
    kind: kindFilter,
    language: (v) => ({ language: v }),
  },
  sortable: { id: "id", created_at: "createdAt", updated_at: "updatedAt", display_name: "displayName" },
  readScope: (actor) => ({ project: projectReadScope(actor) }),
  can: (actor, action, t, tx) => action === "show" || canWriteProjectContent(actor, t.projectId, t.project.primaryLanguage, t.language, tx),
  create: {
    schema: ZCreate,
    perform: async ({ actor, tx }, input: z.infer<typeof ZCreate>) => {
      const project = await requireProjectContentWriter(tx, actor, input.links.project, input.language);
      const tutorial = await tx.tutorial.create({
        data: {
          projectId: project.id,
          language: input.language,
          kind: input.kind ?? null,
          displayName: input.display_name ?? "",
          steps: input.steps as Prisma.InputJsonValue,
          configuration: (input.configuration ?? {}) as Prisma.InputJsonValue,
        },
      });
      await linkWorkflows(tx, tutorial, input.links.workflows ?? []);
      return tutorial.id;
    },
  },
  update: {
    schema: ZUpdate,
    perform: async ({ actor, tx }, t, input: z.infer<typeof ZUpdate>) => {
      if (input.language !== undefined && input.language !== t.language) {
        if (!(await canWriteProjectContent(actor, t.projectId, t.project.primaryLanguage, input.language, tx))) {
          throw forbidden(
            `Only the project's owner and collaborators may write its tutorials in its primary language '${t.project.primaryLanguage}'`,
          );
        }
      }
      await tx.tutorial.update({
        where: { id: t.id },
        data: {
          steps: input.steps as Prisma.InputJsonValue | undefined,
          language: input.language,
          kind: input.kind,
          displayName: input.display_name,
          configuration: input.configuration as Prisma.InputJsonValue | undefined,
          updatedAt: new Date(),
        },
      });
      if (input.links?.workflows) {
        await tx.workflowTutorial.deleteMany({ where: { tutorialId: t.id } });
        await linkWorkflows(tx, t, input.links.workflows);
      }
    },
  },
  destroy: async ({ tx }, t) => {
    await deleteMediaOf(tx, "tutorials", t.id);
    await tx.tutorial.delete({ where: { id: t.id } });
  },
  links: {
    workflows: {
      add: async ({ tx }, t, ids) => {
        await linkWorkflows(tx, t, ids);
        await touch(tx, t.id);
      },
      remove: async ({ tx }, t, ids) => {
        await tx.workflowTutorial.deleteMany({ where: { tutorialId: t.id, workflowId: { in: ids } } });
        await touch(tx, t.id);
      },
    },
  },
};
