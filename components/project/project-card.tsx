import type { ProjectRecord } from "@/components/ui/wire-types";
import { ProgressBar } from "@/components/ui/progress-bar";
import { useUploadUrl } from "@/components/ui/upload-url-context";
import { formatNumber } from "@/lib/text/format";

/** A card's avatar: the uploaded one, else the project's external link, else its initial on a tinted square. */
function ProjectAvatar({ project, src }: { project: ProjectRecord; src: string | null }) {
  // Our uploads by path, so the page's own origin serves them (components/ui/upload-url.ts).
  const local = useUploadUrl();
  if (src) return <img src={local(src)} alt="" className="h-12 w-12 shrink-0 rounded-full border border-gray-200 object-cover" />;
  const initial = [...project.display_name.trim()][0]?.toUpperCase() ?? "?";
  return (
    <span
      aria-hidden
      data-testid="avatar-placeholder"
      className="flex h-12 w-12 shrink-0 items-center justify-center rounded-full border border-gray-200 bg-brand-50 text-xl font-semibold text-brand-700"
    >
      {initial}
    </span>
  );
}

/** A project's card: avatar, name, owner and state, description, tags, progress and counts. */
export function ProjectCard({ project: p, avatar }: { project: ProjectRecord; avatar: string | null }) {
  return (
    <li className="flex flex-col rounded-lg border border-gray-200 bg-white p-4 shadow-sm" data-testid="project-card">
      <div className="flex items-center gap-3">
        <ProjectAvatar project={p} src={avatar} />
        <div className="min-w-0">
          <h3 className="text-lg font-semibold [overflow-wrap:anywhere]">
            <a href={`/projects/${p.id}`} className="hover:text-brand-700 hover:underline">
              {p.display_name}
            </a>
          </h3>
          <p className="text-xs text-gray-500">
            by {p.links.owner.display_name}
            {p.state ? ` · ${p.state}` : p.beta ? " · beta" : ""}
          </p>
        </div>
      </div>
      <p className="mt-2 line-clamp-3 flex-1 text-sm text-gray-700">{p.description || "No description yet."}</p>
      {p.tags.length > 0 && (
        <ul aria-label="Tags" className="mt-2 flex flex-wrap gap-1">
          {p.tags.slice(0, 5).map((t) => (
            <li key={t} className="rounded bg-gray-100 px-2 py-0.5 text-xs text-gray-700">
              {t}
            </li>
          ))}
        </ul>
      )}
      <ProjectProgress project={p} />
      <dl className="mt-2 flex flex-wrap gap-x-4 text-xs text-gray-600">
        <div>
          <dt className="inline">Classifications: </dt>
          <dd className="inline font-medium">{formatNumber(p.classifications_count)}</dd>
        </div>
        <div>
          <dt className="inline">Subjects: </dt>
          <dd className="inline font-medium">{formatNumber(p.subjects_count)}</dd>
        </div>
      </dl>
    </li>
  );
}

/**
 * How far a project has come: its completeness (the mean of its active workflows' retired / subjects, the
 * figure "Least complete" sorts by) as a bar, and its retired subjects of all, in words.
 */
function ProjectProgress({ project: p }: { project: ProjectRecord }) {
  const pct = Math.round(Math.min(1, Math.max(0, p.completeness ?? 0)) * 100);
  return (
    <div className="mt-3 flex flex-col gap-1" data-testid="project-progress">
      <ProgressBar max={100} value={pct} label={`${p.display_name}: ${pct}% complete`} />
      <p className="text-xs text-gray-600">
        <span className="font-medium text-gray-800">{pct}% complete</span>
        {p.subjects_count > 0 && ` · ${formatNumber(p.retired_subjects_count)} of ${formatNumber(p.subjects_count)} subjects retired`}
      </p>
    </div>
  );
}
