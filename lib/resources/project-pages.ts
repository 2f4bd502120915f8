import type { ProjectPage } from "@/lib/generated/prisma/client";
import { canOnProject, projectReadScope } from "@/lib/policies/project-policy";
import { pageResource } from "./pages";
import { projectInclude, projects } from "./projects";

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
      project: projectInclude(),
    },
  },
  projects,
);
