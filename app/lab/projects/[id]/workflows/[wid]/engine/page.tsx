import Link from "next/link";
import { notFound } from "next/navigation";
import { editableProject } from "@/app/lab/lab-access";
import { EngineBuilder } from "@/components/lab/engine-builder";

export const dynamic = "force-dynamic";

/** The visual builder of a workflow's decision-engine configuration (extractors, reducers, rules). */
export default async function EngineBuilderPage({ params }: { params: Promise<{ id: string; wid: string }> }) {
  const { id, wid } = await params;
  const project = await editableProject(id);
  const workflow = project?.workflows.find((w) => String(w.id) === wid);
  if (!project || !workflow) notFound();
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
