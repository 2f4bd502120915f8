"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiGet } from "@/components/ui/api-client";

interface ProjectSummary {
  id: string;
  display_name: string;
  description: string;
  classifications_count: number;
  subjects_count: number;
  beta: boolean;
  live: boolean;
  links: { owner: { display_name: string } };
}
interface ProjectsPage {
  projects: ProjectSummary[];
  meta: { projects: { page: number; page_count: number; count: number } };
}

const PAGE_SIZE = 12;

/** Public projects from /api/projects, with search and paging (the browser session is sent along). */
export function ProjectList() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const [draft, setDraft] = useState("");
  const query = useQuery({
    queryKey: ["projects", page, search],
    queryFn: () =>
      apiGet<ProjectsPage>(`/projects?private=false&sort=-updated_at&page=${page}&page_size=${PAGE_SIZE}${search ? `&search=${encodeURIComponent(search)}` : ""}`),
    placeholderData: keepPreviousData,
  });
  const meta = query.data?.meta.projects;

  return (
    <section aria-labelledby="projects-heading">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <h1 id="projects-heading" className="text-2xl font-bold">
          Projects
        </h1>
        <form
          role="search"
          className="flex gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            setPage(1);
            setSearch(draft.trim());
          }}
        >
          <label htmlFor="project-search" className="sr-only">
            Search projects
          </label>
          <input
            id="project-search"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            placeholder="Search projects"
            className="w-56 rounded border border-gray-300 px-3 py-1.5"
          />
          <button className="rounded bg-brand-600 px-3 py-1.5 text-white hover:bg-brand-700">Search</button>
        </form>
      </div>

      {query.isPending ? (
        <p role="status" className="text-gray-600">
          Loading projects…
        </p>
      ) : query.isError ? (
        <div role="alert" className="rounded border border-red-300 bg-red-50 p-4 text-red-800">
          Could not load projects: {query.error.message}{" "}
          <button className="underline" onClick={() => query.refetch()}>
            Try again
          </button>
        </div>
      ) : query.data.projects.length === 0 ? (
        <p className="text-gray-600">{search ? `No projects match “${search}”.` : "No public projects yet."}</p>
      ) : (
        <>
          <p className="sr-only" role="status">
            {meta?.count} projects
          </p>
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy={query.isFetching}>
            {query.data.projects.map((p) => (
              <li key={p.id} className="flex flex-col rounded-lg border border-gray-200 bg-white p-4 shadow-sm" data-testid="project-card">
                <h2 className="text-lg font-semibold">
                  <a href={`/projects/${p.id}`} className="hover:text-brand-700 hover:underline">
                    {p.display_name}
                  </a>
                </h2>
                <p className="text-xs text-gray-500">by {p.links.owner.display_name}</p>
                <p className="mt-2 line-clamp-3 flex-1 text-sm text-gray-700">{p.description || "No description yet."}</p>
                <dl className="mt-3 flex gap-4 text-xs text-gray-600">
                  <div>
                    <dt className="inline">Classifications: </dt>
                    <dd className="inline font-medium">{p.classifications_count.toLocaleString()}</dd>
                  </div>
                  <div>
                    <dt className="inline">Subjects: </dt>
                    <dd className="inline font-medium">{p.subjects_count.toLocaleString()}</dd>
                  </div>
                </dl>
              </li>
            ))}
          </ul>
          {meta && meta.page_count > 1 && (
            <nav aria-label="Project pages" className="mt-6 flex items-center justify-center gap-3">
              <button
                className="rounded border border-gray-300 px-3 py-1 disabled:opacity-40"
                disabled={page <= 1}
                onClick={() => setPage((p) => p - 1)}
              >
                Previous
              </button>
              <span className="text-sm">
                Page {meta.page} of {meta.page_count}
              </span>
              <button
                className="rounded border border-gray-300 px-3 py-1 disabled:opacity-40"
                disabled={page >= meta.page_count}
                onClick={() => setPage((p) => p + 1)}
              >
                Next
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
