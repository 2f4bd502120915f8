import { labTitle } from "@/app/page-titles";
import { notFound } from "next/navigation";
import { editableProject } from "@/app/lab/lab-access";
import { FieldGuideEditor } from "@/components/lab/field-guide-editor";
import { LabHeading } from "@/components/lab/lab-heading";

export const generateMetadata = labTitle("Field guide");

export const dynamic = "force-dynamic";

/** A project's field guide: items of a title, an icon and Markdown, in order, with a preview. */
export default async function FieldGuidePage({ params }: { params: Promise<{ id: string }> }) {
  const project = await editableProject((await params).id);
  if (!project) notFound();
  return (
    <article className="flex flex-col gap-4">
      <LabHeading projectName={project.displayName} title="Field guide" />
      <FieldGuideEditor projectId={project.id} language={project.primaryLanguage} />
    </article>
  );
}
