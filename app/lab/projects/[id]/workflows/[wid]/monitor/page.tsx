import { labTitle } from "@/app/page-titles";
import Link from "next/link";
import { editableWorkflow, labActor, workflowExtras } from "@/app/lab/lab-access";
import { WorkflowHeading } from "@/components/lab/workflow-heading";
import { WorkflowMonitor } from "@/components/lab/workflow-monitor";
import type { Tasks } from "@/lib/tasks/types";
import { retirementLimit } from "@/lib/domain/workflow-tasks";

export const generateMetadata = labTitle("Monitoring");

export const dynamic = "force-dynamic";

/** A workflow watched live: reductions, retirements, the engine's actions, exports and aggregations. */
export default async function WorkflowMonitorPage({ params }: { params: Promise<{ id: string; wid: string }> }) {
  const { project, workflow } = await editableWorkflow(params);
  const [actor, extras] = await Promise.all([labActor(), workflowExtras(workflow.id)]);
  return (
    <article className="flex flex-col gap-4">
      <WorkflowHeading project={project} workflow={workflow} title={`Monitoring: ${workflow.displayName}`}>
        <p className="text-sm text-gray-600">
          Updated every few seconds.{" "}
          <Link href={`/lab/projects/${project.id}/workflows/${workflow.id}/engine`} className="text-brand-700 underline">
            Decision engine
          </Link>
        </p>
      </WorkflowHeading>
      <WorkflowMonitor
        workflowId={workflow.id}
        userId={actor.user!.id}
        tasks={(workflow.tasks ?? {}) as Tasks}
        retirementLimit={retirementLimit(workflow.retirement)}
        {...extras}
      />
    </article>
  );
}
