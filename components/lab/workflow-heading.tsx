import Link from "next/link";
import type { ReactNode } from "react";

/** The heading of a lab page of a workflow: the way back to its project, and what this page is for. */
export function WorkflowHeading({
  project,
  workflow,
  title,
  children,
}: {
  project: { id: number; displayName: string };
  workflow: { displayName: string };
  title: string;
  children?: ReactNode;
}) {
  return (
    <header>
      <p className="text-sm text-gray-600">
        <Link href={`/lab/projects/${project.id}`} className="underline">
          {project.displayName}
        </Link>{" "}
        · {workflow.displayName}
      </p>
      <h1 className="text-2xl font-bold">{title}</h1>
      {children}
    </header>
  );
}
