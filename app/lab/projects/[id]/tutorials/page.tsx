import { labTitle } from "@/app/page-titles";
import { notFound } from "next/navigation";
import { editableProject } from "@/app/lab/lab-access";
import { LabHeading } from "@/components/lab/lab-heading";
import { TutorialsEditor } from "@/components/lab/tutorials-editor";

export const generateMetadata = labTitle("Tutorials");

export const dynamic = "force-dynamic";

/** A project's tutorials and mini-courses: steps of Markdown and images, the workflows that show them, a preview. */
export default async function TutorialsPage({ params }: { params: Promise<{ id: string }> }) {
  const project = await editableProject((await params).id);
  if (!project) notFound();
  const workflows = project.workflows.map((w) => ({ id: String(w.id), name: w.displayName || `Workflow ${w.id}` }));
  return (
    <article className="flex flex-col gap-4">
      <LabHeading projectName={project.displayName} title="Tutorials" />
      <TutorialsEditor projectId={project.id} language={project.primaryLanguage} kind="tutorial" workflows={workflows} />
      <TutorialsEditor projectId={project.id} language={project.primaryLanguage} kind="mini-course" workflows={workflows} />
    </article>
  );
}
