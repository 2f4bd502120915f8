import Link from "next/link";
import { editableWorkflow } from "@/app/lab/lab-access";
import { EngineBuilder } from "@/components/lab/engine-builder";

export const dynamic = "force-dynamic";

/** The visual builder of a workflow's decision-engine configuration (extractors, reducers, rules). */
export default async function EngineBuilderPage({ params }: { params: Promise<{ id: string; wid: string }> }) {
  const { project, workflow } = await editableWorkflow(params);
  const taskKeys = Object.entries((workflow.tasks ?? {}) as Record<string, { type?: string }>).map(([key, t]) => ({ key, type: String(t?.type ?? "") }));
  return (
    <article className="flex flex-col gap-4">
      <header>
        <p className="text-sm text-gray-600">
          <Link href={`/lab/projects/${project.id}`} className="underline">
            {project.displayName}
          </Link>{" "}
          · {workflow.displayName}
        </p>
        <h1 className="text-2xl font-bold">Decision engine</h1>
      </header>
      <EngineBuilder workflowId={workflow.id} taskKeys={taskKeys} />
    </article>
  );
}
