"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { apiGet } from "@/components/ui/api-client";
import { buttonClass } from "@/components/ui/styles";
import { QueryState } from "@/components/ui/query-state";
import { DISCIPLINES } from "@/components/project/disciplines";
import type { ProjectListPage } from "@/components/ui/wire-types";
import { ProjectCard } from "@/components/project/project-card";

const PAGE_SIZE = 12;

const SORTS: [value: string, label: string][] = [
  ["-updated_at", "Recently updated"],
  ["-launch_date", "Newest launches"],
  ["-activity", "Most active (24 h)"],
  ["-classifications_count", "Most classifications"],
  ["completeness", "Least complete"],
  ["display_name", "Name"],
];
// The home page lists launched projects (launch approved, as the established platform's projects page), and
// under "In beta" the projects being tested; a public project that is neither opens by its link only
// (lib/pages/launch.ts says how visibility follows the launch stages).
const LAUNCHED = "launch_approved=true";
const STATUSES: [value: string, label: string, query: string][] = [
  ["live", "Live projects", `live=true&${LAUNCHED}`],
  ["paused", "Paused", `state=paused&${LAUNCHED}`],
  ["finished", "Finished", `state=finished&${LAUNCHED}`],
  ["beta", "In beta", "beta_approved=true&launch_approved=false"],
  ["all", "All launched projects", LAUNCHED],
];

interface Filters {
  search: string;
  discipline: string;
  tag: string;
  sort: string;
  status: string;
  page: number;
}
const DEFAULTS: Filters = { search: "", discipline: "", tag: "", sort: "-updated_at", status: "live", page: 1 };

function fromUrl(): Filters {
  if (typeof window === "undefined") return DEFAULTS;
  const q = new URLSearchParams(window.location.search);
  return {
    search: q.get("q") ?? "",
    discipline: DISCIPLINES.find((d) => d.toLowerCase() === (q.get("discipline") ?? "").toLowerCase()) ?? "",
    tag: q.get("tag") ?? "",
    sort: SORTS.some(([v]) => v === q.get("sort")) ? q.get("sort")! : DEFAULTS.sort,
    status: STATUSES.some(([v]) => v === q.get("status")) ? q.get("status")! : DEFAULTS.status,
    page: Math.max(1, Number(q.get("page")) || 1),
  };
}

function listQuery(f: Filters): string {
  const q = new URLSearchParams({ private: "false", sort: f.sort, page: String(f.page), page_size: String(PAGE_SIZE), include: "avatar" });
  if (f.search) q.set("search", f.search);
  // Each `tags` parameter is one filter (any of its comma-separated tags); several must all match.
  if (f.discipline) q.append("tags", f.discipline.toLowerCase());
  if (f.tag) q.append("tags", f.tag.toLowerCase());
  const status = STATUSES.find(([v]) => v === f.status)?.[2];
  return `/projects?${q}${status ? `&${status}` : ""}`;
}

/** The list's search box and filters. */
const control = "rounded border border-gray-300 bg-white px-3 py-1.5 focus:outline focus:outline-2 focus:outline-brand-600";

/**
 * The public projects from /api/projects: search by name, filters by discipline, tag and status, sorts,
 * pages. The choice is kept in the address (shareable, and the back button restores it).
 */
export function ProjectList() {
  const [f, setF] = useState<Filters>(DEFAULTS);
  const [draft, setDraft] = useState({ search: "", tag: "" });
  useEffect(() => {
    const initial = fromUrl();
    setF(initial);
    // What the visitor typed before the page was interactive stays.
    setDraft((d) => ({ search: d.search || initial.search, tag: d.tag || initial.tag }));
    const back = () => setF(fromUrl());
    window.addEventListener("popstate", back);
    return () => window.removeEventListener("popstate", back);
  }, []);
  const update = (changes: Partial<Filters>) => {
    const next = { ...f, page: 1, ...changes };
    setF(next);
    const q = new URLSearchParams();
    if (next.search) q.set("q", next.search);
    if (next.discipline) q.set("discipline", next.discipline);
    if (next.tag) q.set("tag", next.tag);
    if (next.sort !== DEFAULTS.sort) q.set("sort", next.sort);
    if (next.status !== DEFAULTS.status) q.set("status", next.status);
    if (next.page > 1) q.set("page", String(next.page));
    window.history.pushState(null, "", `${window.location.pathname}${q.size ? `?${q}` : ""}`);
  };
  const query = useQuery({
    queryKey: ["projects", f],
    queryFn: () => apiGet<ProjectListPage>(listQuery(f)),
    placeholderData: keepPreviousData,
  });
  const meta = query.data?.meta.projects;
  const avatars = new Map((query.data?.linked?.avatars ?? []).map((a) => [a.links.linked.id, a.src]));
  const filtered = !!(f.search || f.discipline || f.tag);

  return (
    <>
      <FeaturedProjects />
      <section aria-labelledby="projects-heading">
        <div className="mb-4 flex flex-wrap items-end justify-between gap-4">
          <h2 id="projects-heading" className="text-2xl font-bold">
            Projects
          </h2>
          <form
            role="search"
            className="flex gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              update({ search: draft.search.trim(), tag: draft.tag.trim() });
            }}
          >
            <label htmlFor="project-search" className="sr-only">
              Search projects
            </label>
            {/* Named like the address's parameters: a search sent before the page is interactive loads /?q=… */}
            <input
              id="project-search"
              type="search"
              name="q"
              value={draft.search}
              onChange={(e) => setDraft((d) => ({ ...d, search: e.target.value }))}
              placeholder="Search projects"
              className={`w-44 sm:w-56 ${control}`}
            />
            <button
              type="submit"
              className={
                "rounded bg-brand-600 px-3 py-1.5 text-white hover:bg-brand-700 focus:outline " +
                "focus:outline-2 focus:outline-offset-2 focus:outline-brand-600"
              }
            >
              Search
            </button>
          </form>
        </div>
        <ProjectFilters
          filters={f}
          tag={draft.tag}
          onTag={(tag) => setDraft((d) => ({ ...d, tag }))}
          onChange={update}
          onClear={
            filtered
              ? () => {
                  setDraft({ search: "", tag: "" });
                  update({ search: "", discipline: "", tag: "" });
                }
              : null
          }
        />

        <QueryState query={query} what="projects" retry={() => void query.refetch()}>
          {query.data &&
            (query.data.projects.length === 0 ? (
              <p className="text-gray-600">{filtered ? "No projects match these filters." : "No projects to show yet."}</p>
            ) : (
              <>
                <p className="sr-only" role="status">
                  {meta?.count} projects
                </p>
                <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy={query.isFetching}>
                  {query.data.projects.map((p) => (
                    <ProjectCard key={p.id} project={p} avatar={avatars.get(p.id) ?? p.avatar ?? null} />
                  ))}
                </ul>
                {meta && meta.page_count > 1 && (
                  <nav aria-label="Project pages" className="mt-6 flex items-center justify-center gap-3">
                    <button type="button" className={buttonClass} disabled={f.page <= 1} onClick={() => update({ page: f.page - 1 })}>
                      Previous
                    </button>
                    <span className="text-sm">
                      Page {meta.page} of {meta.page_count}
                    </span>
                    <button
                      type="button"
                      className={buttonClass}
                      disabled={f.page >= meta.page_count}
                      onClick={() => update({ page: f.page + 1 })}
                    >
                      Next
                    </button>
                  </nav>
                )}
              </>
            ))}
        </QueryState>
      </section>
    </>
  );
}

/** Featured projects (the `featured` flag, set by admins), live and public, busiest first; nothing when none. */
function FeaturedProjects() {
  const q = useQuery({
    queryKey: ["projects", "featured"],
    queryFn: () => apiGet<ProjectListPage>("/projects?featured=true&live=true&private=false&sort=-activity&page_size=3&include=avatar"),
    staleTime: 60_000,
  });
  const avatars = new Map((q.data?.linked?.avatars ?? []).map((a) => [a.links.linked.id, a.src]));
  if (!q.data?.projects.length) return null;
  return (
    <section aria-labelledby="featured-heading" data-testid="featured-projects">
      <h2 id="featured-heading" className="mb-4 text-2xl font-bold">
        Featured projects
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {q.data.projects.map((p) => (
          <ProjectCard key={p.id} project={p} avatar={avatars.get(p.id) ?? p.avatar ?? null} />
        ))}
      </ul>
    </section>
  );
}

/** Discipline, tag, status and sort; "Clear filters" when any filter is on (`onClear`). */
function ProjectFilters({
  filters,
  tag,
  onTag,
  onChange,
  onClear,
}: {
  filters: Filters;
  /** The tag as typed, applied with its button. */
  tag: string;
  onTag(tag: string): void;
  onChange(changes: Partial<Filters>): void;
  onClear: (() => void) | null;
}) {
  // On a phone the filters fold behind a "Filters" button; from the sm breakpoint on they are always shown.
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={`mb-3 sm:hidden ${buttonClass}`}
        aria-expanded={open}
        aria-controls="project-filters"
        onClick={() => setOpen((o) => !o)}
      >
        Filters{onClear ? " (on)" : ""}
      </button>
      <div
        id="project-filters"
        className={`mb-6 flex-wrap items-end gap-3 text-sm ${open ? "flex" : "hidden sm:flex"}`}
        role="group"
        aria-label="Filter and sort projects"
      >
        <label className="flex flex-col gap-1">
          <span className="font-medium">Discipline</span>
          <select value={filters.discipline} onChange={(e) => onChange({ discipline: e.target.value })} className={control}>
            <option value="">All disciplines</option>
            {DISCIPLINES.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </label>
        <form
          className="flex items-end gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            onChange({ tag: tag.trim() });
          }}
        >
          <label className="flex flex-col gap-1">
            <span className="font-medium">Tag</span>
            <input
              name="tag"
              value={tag}
              onChange={(e) => onTag(e.target.value)}
              placeholder="e.g. penguins"
              className={`w-36 ${control}`}
            />
          </label>
          <button type="submit" className={buttonClass}>
            Apply tag
          </button>
        </form>
        <label className="flex flex-col gap-1">
          <span className="font-medium">Status</span>
          <select value={filters.status} onChange={(e) => onChange({ status: e.target.value })} className={control}>
            {STATUSES.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="font-medium">Sort by</span>
          <select value={filters.sort} onChange={(e) => onChange({ sort: e.target.value })} className={control}>
            {SORTS.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {onClear && (
          <button type="button" className="rounded px-3 py-1.5 text-brand-700 underline" onClick={onClear}>
            Clear filters
          </button>
        )}
      </div>
    </>
  );
}
