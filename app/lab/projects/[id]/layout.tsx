import type { ReactNode } from "react";
import { notFound } from "next/navigation";
import { editableProject } from "@/app/lab/lab-access";
import { ProjectNav } from "@/components/lab/project-nav";

export const dynamic = "force-dynamic";

/** Every lab page of a project: only its owner, collaborators and admins (a 404 for everyone else), with the sections' tabs. */
export default async function LabProjectLayout({ children, params }: { children: ReactNode; params: Promise<{ id: string }> }) {
  const project = await editableProject((await params).id);
  if (!project) notFound();
  return (
    <div className="flex flex-col gap-4">
      <ProjectNav projectId={project.id} />
      {children}
    </div>
  );
}
