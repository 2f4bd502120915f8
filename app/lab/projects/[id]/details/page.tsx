import { labTitle } from "@/app/page-titles";
import { notFound } from "next/navigation";
import { editableProject } from "@/app/lab/lab-access";
import { DeleteProject } from "@/components/lab/delete-project";
import { LabHeading } from "@/components/lab/lab-heading";
import { ProjectDetailsForm } from "@/components/lab/project-details-form";
import { ProjectMedia } from "@/components/lab/project-media";
import { ProjectPagesEditor } from "@/components/lab/project-pages-editor";
import { LaunchStepper } from "@/components/lab/launch-stepper";
import { launchStatus } from "@/lib/pages/launch";

export const generateMetadata = labTitle("Project details");

export const dynamic = "force-dynamic";

/** A project's launch stepper, texts, settings, images and about pages, and its deletion. */
export default async function ProjectDetailsPage({ params }: { params: Promise<{ id: string }> }) {
  const project = await editableProject((await params).id);
  if (!project) notFound();
  const launch = await launchStatus(project.id);
  if (!launch) notFound();
  return (
    <article className="flex flex-col gap-4">
      <LabHeading projectName={project.displayName} title="Project details" />
      <LaunchStepper projectId={project.id} state={launch} />
      <ProjectDetailsForm projectId={project.id} />
      <ProjectMedia projectId={project.id} />
      <ProjectPagesEditor projectId={project.id} />
      <DeleteProject projectId={project.id} name={project.displayName} />
    </article>
  );
}
