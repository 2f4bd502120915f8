import { labTitle } from "@/app/page-titles";
import { editableWorkflow } from "@/app/lab/lab-access";
import { GoldStandard } from "@/components/lab/gold-standard";
import { WorkflowForm } from "@/components/lab/workflow-form";
import { WorkflowHeading } from "@/components/lab/workflow-heading";
import { draftsFromTasks, type TaskDef } from "@/lib/lab/task-editing";

export const generateMetadata = labTitle("Workflow");

export const dynamic = "force-dynamic";

/** Editing a workflow in the lab: name, retirement, activity, subject sets and their chances, tasks of every type. */
export default async function LabWorkflowPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; wid: string }>;
  searchParams: Promise<{ created?: string }>;
}) {
  const { project, workflow } = await editableWorkflow(params);
  // Just created in the lab's new-workflow form (which comes here): say so above its buttons.
  const created = (await searchParams).created === "1";
  const drafts = draftsFromTasks((workflow.tasks ?? {}) as Record<string, TaskDef>, workflow.firstTask);
  return (
    <article className="flex flex-col gap-4">
      <WorkflowHeading project={project} workflow={workflow} title={workflow.displayName}>
        <p className="text-sm text-gray-600">
          Version {workflow.majorVersion}.{workflow.minorVersion} (task changes move the major version, wording changes the minor one)
        </p>
      </WorkflowHeading>
      <WorkflowForm
        projectId={project.id}
        notice={
          created
            ? `Created “${workflow.displayName}”. Its tasks are below; link subject sets and save, or build its decision engine.`
            : undefined
        }
        subjectSets={project.subjectSets.map((s) => ({ id: s.id, displayName: s.displayName, count: s.setMemberSubjectsCount }))}
        workflow={{
          id: workflow.id,
          displayName: workflow.displayName,
          active: workflow.active,
          retirement: (workflow.retirement ?? {}) as { criteria?: string; options?: { count?: number } },
          drafts,
          configuration: (workflow.configuration ?? {}) as Record<string, unknown>,
          subjectSetIds: workflow.subjectSets.map((s) => s.subjectSetId),
        }}
      />
      <GoldStandard workflowId={workflow.id} />
    </article>
  );
}
