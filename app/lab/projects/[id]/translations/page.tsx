import { labTitle } from "@/app/page-titles";
import { notFound } from "next/navigation";
import { editableProject } from "@/app/lab/lab-access";
import { LabHeading } from "@/components/lab/lab-heading";
import { TranslationsEditor } from "@/components/lab/translations-editor";

export const generateMetadata = labTitle("Translations");

export const dynamic = "force-dynamic";

/** Translations of the project's records (the project, workflows, tutorials, field guide, about pages), key by key. */
export default async function TranslationsPage({ params }: { params: Promise<{ id: string }> }) {
  const project = await editableProject((await params).id);
  if (!project) notFound();
  return (
    <article className="flex flex-col gap-4">
      <LabHeading projectName={project.displayName} title="Translations" />
      <TranslationsEditor projectId={project.id} primaryLanguage={project.primaryLanguage} />
    </article>
  );
}
