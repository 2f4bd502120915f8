import Link from "next/link";

/** The heading of a lab page of a project: the way back to the lab, and what this page is for. */
export function LabHeading({ projectName, title }: { projectName: string; title: string }) {
  return (
    <header>
      <p className="text-sm text-gray-600">
        <Link href="/lab" className="underline">
          Lab
        </Link>{" "}
        › {projectName}
      </p>
      <h1 className="text-2xl font-bold">{title}</h1>
    </header>
  );
}
