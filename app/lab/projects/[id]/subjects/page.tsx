import { labTitle } from "@/app/page-titles";
import { notFound } from "next/navigation";
import { editableProject } from "@/app/lab/lab-access";
import { LabHeading } from "@/components/lab/lab-heading";
import { ManifestImport } from "@/components/lab/manifest-import";
import { SubjectBrowser } from "@/components/lab/subject-browser";
import { SubjectUploadForm } from "@/components/lab/subject-upload-form";

export const generateMetadata = labTitle("Subjects");

export const dynamic = "force-dynamic";

/** A project's subjects: new sets from files, manifests imported, subjects browsed with their retirement. */
export default async function LabSubjectsPage({ params }: { params: Promise<{ id: string }> }) {
  const project = await editableProject((await params).id);
  if (!project) notFound();
  const sets = project.subjectSets.map((s) => ({ id: s.id, displayName: s.displayName }));
  const workflows = project.workflows.map((w) => ({ id: w.id, displayName: w.displayName }));
  return (
    <article className="flex flex-col gap-4">
      <LabHeading projectName={project.displayName} title="Subjects" />
      <p className="text-sm text-gray-600">
        {project.subjectSets.length
          ? project.subjectSets.map((s) => `${s.displayName} (${s.setMemberSubjectsCount})`).join(" · ")
          : "No subject sets yet."}
      </p>
      <SubjectUploadForm projectId={project.id} workflows={workflows} />
      <ManifestImport projectId={project.id} subjectSets={sets} workflows={workflows} />
      <SubjectBrowser subjectSets={sets} workflows={workflows} />
    </article>
  );
}
