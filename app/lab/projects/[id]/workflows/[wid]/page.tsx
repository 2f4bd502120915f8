import Link from "next/link";
import { editableWorkflow } from "@/app/lab/lab-access";
import { WorkflowForm } from "@/components/lab/workflow-form";
import { draftsFrom } from "@/lib/lab/workflow-drafts";

export const dynamic = "force-dynamic";

/** Editing a workflow in the lab: its name, retirement, whether it is active, and its question and text tasks. */
export default async function LabWorkflowPage({ params }: { params: Promise<{ id: string; wid: string }> }) {
  const { project, workflow } = await editableWorkflow(params);
  const drafts = draftsFrom((workflow.tasks ?? {}) as Record<string, Record<string, unknown>>, workflow.firstTask);
  return (
    <article className="flex flex-col gap-4">
      <header>
        <p className="text-sm text-gray-600">
          <Link href={`/lab/projects/${project.id}`} className="underline">
            {project.displayName}
          </Link>
        </p>
        <h1 className="text-2xl font-bold">{workflow.displayName}</h1>
        <p className="text-sm text-gray-600">
          Version {workflow.majorVersion}.{workflow.minorVersion} (task changes move the major version, wording changes the minor one)
        </p>
      </header>
      {drafts ? (
        <WorkflowForm
          projectId={project.id}
          workflow={{ id: workflow.id, displayName: workflow.displayName, active: workflow.active, retirement: (workflow.retirement ?? {}) as { criteria?: string; options?: { count?: number } }, drafts }}
        />
      ) : (
        <p className="rounded border border-amber-300 bg-amber-50 p-3">
          This workflow has tasks the lab cannot edit yet (drawing, survey or combo). Edit it through the API, for example with
          panoptes-client.
        </p>
      )}
    </article>
  );
}
