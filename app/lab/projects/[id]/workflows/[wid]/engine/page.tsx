import { labTitle } from "@/app/page-titles";
import Link from "next/link";
import { editableWorkflow, workflowExtras } from "@/app/lab/lab-access";
import { EngineBuilder } from "@/components/lab/engine-builder";
import { WorkflowHeading } from "@/components/lab/workflow-heading";
import { draftsFromTasks, type TaskDef } from "@/lib/lab/task-editing";

export const generateMetadata = labTitle("Decision engine");

export const dynamic = "force-dynamic";

/** The visual builder of a workflow's decision-engine configuration (extractors, reducers, rules). */
export default async function EngineBuilderPage({ params }: { params: Promise<{ id: string; wid: string }> }) {
  const { project, workflow } = await editableWorkflow(params);
  const { engineConfigured } = await workflowExtras(workflow.id);
  // The tasks as the workflow editor lists them (first task first), named to the researcher by their words.
  const tasks = draftsFromTasks((workflow.tasks ?? {}) as Record<string, TaskDef>, workflow.firstTask);
  return (
    <article className="flex flex-col gap-4">
      <WorkflowHeading project={project} workflow={workflow} title="Decision engine">
        <p className="text-sm">
          <Link href={`/lab/projects/${project.id}/workflows/${workflow.id}/monitor`} className="text-brand-700 underline">
            Monitor this workflow
          </Link>
        </p>
      </WorkflowHeading>
      <EngineBuilder
        workflowId={workflow.id}
        tasks={tasks}
        configured={engineConfigured}
        targets={{
          subject_set_id: project.subjectSets.map((s) => ({ value: String(s.id), label: s.displayName })),
          workflow_id: project.workflows.filter((w) => w.id !== workflow.id).map((w) => ({ value: String(w.id), label: w.displayName })),
        }}
      />
    </article>
  );
}
