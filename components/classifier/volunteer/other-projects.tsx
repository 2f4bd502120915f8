"use client";
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "@/components/ui/api-client";
import type { ProjectListPage } from "@/components/ui/wire-types";

/**
 * Where to go next when a volunteer has seen every subject of this workflow: a few other live public
 * projects that have subjects, busiest first, each linked to its classify page. Loaded lazily by the
 * classifier (its own chunk), so the classify page's first load does not carry it.
 */
export function OtherProjects({ projectId }: { projectId: string }) {
  const q = useQuery({
    queryKey: ["other-projects"],
    queryFn: () => apiGet<ProjectListPage>("/projects?live=true&private=false&sort=-activity&page_size=8"),
    staleTime: 5 * 60_000,
  });
  const others = (q.data?.projects ?? []).filter((p) => p.id !== projectId && p.subjects_count > 0 && !p.state).slice(0, 3);
  if (!others.length) return null;
  return (
    <section aria-labelledby="other-projects-heading" className="rounded border border-gray-200 bg-white p-4" data-testid="other-projects">
      <h2 id="other-projects-heading" className="font-semibold">
        Other projects to classify
      </h2>
      <p className="text-sm text-gray-600">You have seen everything here for now. These projects would welcome your help:</p>
      <ul className="mt-2 flex flex-col gap-2">
        {others.map((p) => (
          <li key={p.id} className="flex flex-wrap items-baseline gap-x-2">
            <a href={`/projects/${p.id}/classify`} className="font-medium text-brand-700 underline">
              {p.display_name}
            </a>
            {p.description && <span className="line-clamp-1 text-sm text-gray-600">{p.description}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
