import { labTitle } from "@/app/page-titles";
import { notFound } from "next/navigation";
import { editableProject } from "@/app/lab/lab-access";
import { Collaborators } from "@/components/lab/collaborators";
import { LabHeading } from "@/components/lab/lab-heading";

export const generateMetadata = labTitle("Collaborators");

export const dynamic = "force-dynamic";

/** A project's team: roles given, changed and removed; collaborators invited by login. */
export default async function CollaboratorsPage({ params }: { params: Promise<{ id: string }> }) {
  const project = await editableProject((await params).id);
  if (!project) notFound();
  return (
    <article className="flex flex-col gap-4">
      <LabHeading projectName={project.displayName} title="Collaborators" />
      <Collaborators projectId={project.id} />
    </article>
  );
}
