import Link from "next/link";
import { editableWorkflow, labActor } from "@/app/lab/lab-access";
import { WorkflowMonitor } from "@/components/lab/workflow-monitor";

export const dynamic = "force-dynamic";

/** A workflow watched live: reductions, retirements, the engine's actions, exports and aggregations. */
export default async function WorkflowMonitorPage({ params }: { params: Promise<{ id: string; wid: string }> }) {
  const { project, workflow } = await editableWorkflow(params);
  const actor = await labActor();
  return (
    <article className="flex flex-col gap-4">
      <header>
        <p className="text-sm text-gray-600">
          <Link href={`/lab/projects/${project.id}`} className="underline">
            {project.displayName}
          </Link>{" "}
          ·{" "}
          <Link href={`/lab/projects/${project.id}/workflows/${workflow.id}/engine`} className="underline">
            Decision engine
          </Link>
        </p>
        <h1 className="text-2xl font-bold">Monitoring: {workflow.displayName}</h1>
        <p className="text-sm text-gray-600">Updated every few seconds.</p>
      </header>
      <WorkflowMonitor workflowId={workflow.id} userId={actor.user!.id} />
    </article>
  );
}
