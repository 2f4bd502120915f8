import type { Prisma, ProjectPage } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db";
import { canOnProject, projectReadScope } from "@/lib/policies/project-policy";
import { pageResource } from "./pages";
import { projects } from "./projects";

// A project's pages: /api/projects/<id>/pages[/<page id>] (lib/resources/pages.ts).
type ProjectPageRow = ProjectPage & { project: { primaryLanguage: string } };

export const projectPages = pageResource<ProjectPageRow, Parameters<typeof projects.serialize>[0]>(
  {
    type: "project_pages",
    table: "project_pages",
    model: "projectPage",
    writeScope: "project",
    parentType: "projects",
    parentLink: "project",
    parentField: "projectId",
    parentRelation: "project",
    parentId: (row) => row.projectId,
    primaryLanguage: (row) => row.project.primaryLanguage,
    queryInclude: { project: { select: { primaryLanguage: true } } },
    parentReadScope: projectReadScope,
    canOnParent: canOnProject,
    includes: {
      project: {
        type: "projects",
        load: async (rows, actor) => {
          const found = await db().project.findMany({
            where: { AND: [{ id: { in: [...new Set(rows.map((r) => r.projectId))] } }, projectReadScope(actor)] },
            include: projects.queryInclude as Prisma.ProjectInclude,
          });
          return found.map((p) => ({ record: projects.serialize(p as never, actor), parentIds: rows.filter((r) => r.projectId === p.id).map((r) => r.id) }));
        },
      },
    },
  },
  projects,
);
