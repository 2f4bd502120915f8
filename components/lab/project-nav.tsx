"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

/** The lab's sections of a project; the current one is marked for screen readers and by its look. */
export function ProjectNav({ projectId }: { projectId: number }) {
  const path = usePathname();
  const base = `/lab/projects/${projectId}`;
  const tabs: [href: string, label: string, current: boolean][] = [
    [base, "Workflows", path === base || path.startsWith(`${base}/workflows`)],
    [`${base}/details`, "Project details", path.startsWith(`${base}/details`)],
    [`${base}/collaborators`, "Collaborators", path.startsWith(`${base}/collaborators`)],
    [`${base}/subjects`, "Subjects", path.startsWith(`${base}/subjects`)],
    [`${base}/tutorials`, "Tutorials", path.startsWith(`${base}/tutorials`)],
    [`${base}/field-guide`, "Field guide", path.startsWith(`${base}/field-guide`)],
  ];
  return (
    <nav aria-label="Project builder" className="overflow-x-auto border-b border-gray-200">
      <ul className="flex gap-1">
        {tabs.map(([href, label, current]) => (
          <li key={href}>
            <Link
              href={href}
              aria-current={current ? "page" : undefined}
              className={
                "block whitespace-nowrap rounded-t px-3 py-2 text-sm font-medium " +
                (current ? "border border-b-white border-gray-200 bg-white text-brand-700" : "text-gray-700 hover:bg-gray-100")
              }
            >
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
