import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import { hasScope } from "@/lib/auth/actor";
import type { Prisma } from "@/lib/generated/prisma/client";
import { forbidden, notFound, unauthorized, unprocessable } from "@/lib/errors";
import { projectReadScope } from "@/lib/policies/project-policy";
import { slugFor } from "@/lib/text/slug";
import type { Tx } from "@/lib/db/types";

// POST /api/projects/<id>/copy as the established platform's ProjectCopier: a template project (its
// configuration's `template` set, and not live) is copied for the caller, who owns the copy: its texts,
// tags and settings, active workflows (versions recorded), tutorials (linked to the copied workflows),
// field guides, pages, external avatar/background links and translations. Counters start at zero; the copy
// is neither live nor launch-approved; its configuration records the source. With `create_subject_set`,
// an empty subject set of that name is created and linked to the copied workflows (an upload target).

export const ZCopyProject = z.strictObject({ create_subject_set: z.string().trim().min(1).max(255).optional() });

const json = (v: unknown) => v as Prisma.InputJsonValue;

export async function copyProject(tx: Tx, actor: Actor, sourceId: number, input: z.infer<typeof ZCopyProject>): Promise<number> {
  if (!actor.user) throw unauthorized("Sign in to copy a project");
  if (!hasScope(actor, "project")) throw forbidden("This token lacks the 'project' scope");
  const source = await tx.project.findFirst({
    where: { AND: [{ id: sourceId }, projectReadScope(actor)] },
    include: {
      workflows: { where: { active: true }, orderBy: { id: "asc" }, include: { tutorials: true } },
      tutorials: { orderBy: { id: "asc" } },
      fieldGuides: { orderBy: { id: "asc" } },
      pages: { orderBy: { id: "asc" } },
      translations: { orderBy: { id: "asc" } },
    },
  });
  if (!source) throw notFound(`Could not find projects with id='${sourceId}'`);
  const template = (source.configuration as { template?: unknown } | null)?.template;
  if (!(template === true || template === "true") || source.live) {
    throw unprocessable("Only a template project (configuration.template true) that is not live can be copied");
  }
  const owner = await tx.user.findUniqueOrThrow({ where: { id: actor.user.id }, select: { id: true, login: true } });
  // Own projects' copies are named "(copy)"; a name taken by another of the owner's projects gets a number.
  const base = source.ownerId === owner.id ? `${source.displayName} (copy)` : source.displayName;
  let displayName = base;
  for (let n = 2; await tx.project.findFirst({ where: { ownerId: owner.id, displayName }, select: { id: true } }); n++)
    displayName = `${base} ${n}`;

  const copy = await tx.project.create({
    data: {
      ownerId: owner.id,
      displayName,
      slug: slugFor(owner.login, displayName),
      title: source.title,
      description: source.description,
      introduction: source.introduction,
      scienceCase: source.scienceCase,
      faq: source.faq,
      result: source.result,
      educationContent: source.educationContent,
      backgroundImage: source.backgroundImage,
      avatar: source.avatar,
      primaryLanguage: source.primaryLanguage,
      availableLanguages: source.availableLanguages,
      guide: json(source.guide),
      teamMembers: json(source.teamMembers),
      urls: json(source.urls),
      tags: source.tags,
      configuration: { source_project_id: source.id },
      workflowDescription: source.workflowDescription,
      researcherQuote: source.researcherQuote,
      private: source.private,
      mobileFriendly: source.mobileFriendly,
    },
  });
  await tx.projectRole.create({ data: { projectId: copy.id, userId: owner.id, roles: ["owner"] } });

  const workflowIds = new Map<number, number>();
  for (const w of source.workflows) {
    const c = await tx.workflow.create({
      data: {
        projectId: copy.id,
        displayName: w.displayName,
        tasks: json(w.tasks),
        firstTask: w.firstTask,
        primaryLanguage: w.primaryLanguage,
        configuration: json(w.configuration),
        retirement: json(w.retirement),
        aggregation: json(w.aggregation),
        strings: json(w.strings),
        active: true,
        grouped: w.grouped,
        prioritized: w.prioritized,
        pairwise: w.pairwise,
        mobileFriendly: w.mobileFriendly,
      },
    });
    workflowIds.set(w.id, c.id);
    await tx.workflowVersion.create({
      data: {
        workflowId: c.id,
        majorNumber: c.majorVersion,
        minorNumber: c.minorVersion,
        tasks: json(c.tasks),
        firstTask: c.firstTask,
        strings: json(c.strings),
      },
    });
  }
  const tutorialIds = new Map<number, number>();
  for (const t of source.tutorials) {
    const c = await tx.tutorial.create({
      data: {
        projectId: copy.id,
        language: t.language,
        kind: t.kind,
        displayName: t.displayName,
        steps: json(t.steps),
        configuration: json(t.configuration),
      },
    });
    tutorialIds.set(t.id, c.id);
  }
  for (const w of source.workflows) {
    for (const link of w.tutorials) {
      const tutorialId = tutorialIds.get(link.tutorialId);
      if (tutorialId) await tx.workflowTutorial.create({ data: { workflowId: workflowIds.get(w.id)!, tutorialId } });
    }
  }
  const guideIds = new Map<number, number>();
  for (const g of source.fieldGuides)
    guideIds.set(g.id, (await tx.fieldGuide.create({ data: { projectId: copy.id, language: g.language, items: json(g.items) } })).id);
  const pageIds = new Map<number, number>();
  for (const p of source.pages)
    pageIds.set(
      p.id,
      (
        await tx.projectPage.create({
          data: { projectId: copy.id, urlKey: p.urlKey, title: p.title, language: p.language, content: p.content },
        })
      ).id,
    );

  // Media linked elsewhere are shared; stored files are not (deleting one copy's would delete the other's).
  const media = await tx.medium.findMany({
    where: { linkedType: "projects", linkedId: source.id, externalLink: true, type: { in: ["project_avatar", "project_background"] } },
  });
  for (const m of media)
    await tx.medium.create({
      data: {
        type: m.type,
        linkedType: "projects",
        linkedId: copy.id,
        contentType: m.contentType,
        src: m.src,
        externalLink: true,
        metadata: json(m.metadata),
      },
    });

  const newId = (type: string, id: number) =>
    type === "project"
      ? id === source.id
        ? copy.id
        : undefined
      : type === "workflow"
        ? workflowIds.get(id)
        : type === "tutorial"
          ? tutorialIds.get(id)
          : type === "field_guide"
            ? guideIds.get(id)
            : type === "project_page"
              ? pageIds.get(id)
              : undefined;
  for (const t of source.translations) {
    const translatedId = newId(t.translatedType, t.translatedId);
    if (translatedId !== undefined) {
      await tx.translation.create({
        data: {
          translatedType: t.translatedType,
          translatedId,
          language: t.language,
          projectId: copy.id,
          strings: json(t.strings),
          stringVersions: json(t.stringVersions),
        },
      });
    }
  }

  if (input.create_subject_set) {
    const set = await tx.subjectSet.create({ data: { projectId: copy.id, displayName: input.create_subject_set } });
    for (const workflowId of workflowIds.values()) await tx.workflowSubjectSet.create({ data: { workflowId, subjectSetId: set.id } });
  }
  return copy.id;
}
