import { labTitle } from "@/app/page-titles";
import Link from "next/link";
import { notFound } from "next/navigation";
import { editableProject } from "@/app/lab/lab-access";
import { WorkflowForm } from "@/components/lab/workflow-form";
import { buttonClass } from "@/components/ui/controls";

export const generateMetadata = labTitle("Workflows");

export const dynamic = "force-dynamic";

/** The lab's page of a project: its workflows, each with its decision-engine builder. Owners, collaborators and admins only. */
export default async function LabProjectPage({ params }: { params: Promise<{ id: string }> }) {
  const project = await editableProject((await params).id);
  if (!project) notFound();
  return (
    <article className="flex flex-col gap-4">
      <header>
        <p className="text-sm text-gray-600">
          <Link href="/lab" className="underline">
            Lab
          </Link>
        </p>
        <h1 className="text-2xl font-bold">{project.displayName}</h1>
        <p className="text-sm">
          <Link href={`/projects/${project.id}`} className="text-brand-700 underline">
            The project&apos;s page
          </Link>
        </p>
      </header>
      <section aria-labelledby="workflows-heading" className="flex flex-col gap-2">
        <h2 id="workflows-heading" className="text-xl font-semibold">
          Workflows
        </h2>
        {project.workflows.length === 0 ? (
          <p className="text-gray-600">This project has no workflows yet.</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {project.workflows.map((w) => (
              <li key={w.id} className="flex flex-wrap items-center justify-between gap-2 rounded border border-gray-200 bg-white p-3">
                <span>
                  <span className="font-medium">{w.displayName}</span>{" "}
                  <span className="text-sm text-gray-600">
                    version {w.majorVersion}.{w.minorVersion}
                    {w.active ? "" : " · inactive"}
                  </span>
                </span>
                <span className="flex gap-2">
                  <Link href={`/lab/projects/${project.id}/workflows/${w.id}`} className={buttonClass}>
                    Edit<span className="sr-only"> {w.displayName}</span>
                  </Link>
                  <Link
                    href={`/lab/projects/${project.id}/workflows/${w.id}/engine`}
                    className="rounded bg-brand-600 px-3 py-1 text-sm font-semibold text-white hover:bg-brand-700"
                  >
                    Decision engine<span className="sr-only"> of {w.displayName}</span>
                  </Link>
                  <Link href={`/lab/projects/${project.id}/workflows/${w.id}/monitor`} className={buttonClass}>
                    Monitor<span className="sr-only"> {w.displayName}</span>
                  </Link>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="subjects-heading" className="flex flex-col gap-2">
        <h2 id="subjects-heading" className="text-xl font-semibold">
          Subjects
        </h2>
        <p className="text-sm text-gray-600">
          {project.subjectSets.length
            ? project.subjectSets.map((s) => `${s.displayName} (${s.setMemberSubjectsCount})`).join(" · ")
            : "No subject sets yet."}{" "}
          <Link href={`/lab/projects/${project.id}/subjects`} className="text-brand-700 underline">
            Add and browse subjects
          </Link>
        </p>
      </section>
      <WorkflowForm projectId={project.id} />
    </article>
  );
}
