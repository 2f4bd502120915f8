import { ProgressBar } from "@/components/ui/progress-bar";
import { projectTitle } from "@/app/page-titles";
import Link from "next/link";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { resolveActor } from "@/lib/auth/actor";
import { isIdString } from "@/lib/text/params";
import { loadProjectPage } from "@/lib/pages/load";
import { ServerMarkdown } from "@/components/ui/server-markdown";
import { ProjectStatistics } from "@/components/project/project-statistics";
import { localUploadUrl, localUploadUrlOrNull } from "@/components/ui/upload-url";
import { publicBaseUrl } from "@/lib/env";
import { AboutNav, ProjectBanner } from "@/components/project/project-header";
import { LanguageChooser } from "@/components/project/language-chooser-lazy";
import { chooseLanguage, LANGUAGE_COOKIE, translated, translationsOf } from "@/lib/domain/translate";
import { applyStrings } from "@/lib/i18n/strings";
import { formatDay, formatNumber } from "@/lib/text/format";

export const generateMetadata = projectTitle();

export const dynamic = "force-dynamic";

const ROLE_NAMES: Record<string, string> = {
  owner: "Owner",
  collaborator: "Collaborator",
  scientist: "Researcher",
  moderator: "Moderator",
};

/**
 * A project's front page: banner (background, avatar, title, owner), the call to action (the project's
 * workflow_description, Markdown) above a button per active workflow with its completeness, the
 * researcher quote, the figures, introduction, about pages, team, organisations, the volunteer's
 * recently classified subjects, and classifications over the last 30 days. Private projects are a 404 to
 * those without a role, as in the API.
 */
export default async function ProjectPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ language?: string }>;
}) {
  const { id } = await params;
  const { language: asked } = await searchParams;
  if (!isIdString(id)) notFound();
  const h = await headers();
  const actor = await resolveActor(new Request("http://local/", { headers: { cookie: h.get("cookie") ?? "" } }));
  const loaded = await loadProjectPage(Number(id), actor);
  if (!loaded) notFound();
  const { about, team, organizations, recents, canEdit } = loaded;
  // The project's texts and workflow names in the chosen language, where translated.
  const language = chooseLanguage(loaded.project, asked, h.get("cookie")?.match(new RegExp(`(?:^|; )${LANGUAGE_COOKIE}=([^;]+)`))?.[1]);
  const texts = await translated("project", loaded.project.id, language, loaded.project.primaryLanguage, {
    display_name: loaded.project.displayName,
    description: loaded.project.description,
    introduction: loaded.project.introduction,
    workflow_description: loaded.project.workflowDescription,
    researcher_quote: loaded.project.researcherQuote,
  });
  const workflowNames = await translationsOf(
    "workflow",
    loaded.project.workflows.map((w) => w.id),
    language,
  );
  const project = {
    ...loaded.project,
    displayName: texts.display_name,
    description: texts.description,
    introduction: texts.introduction,
    workflowDescription: texts.workflow_description,
    researcherQuote: texts.researcher_quote,
    workflows: loaded.project.workflows.map((w) => ({
      ...w,
      displayName: applyStrings({ display_name: w.displayName }, workflowNames.get(w.id) ?? {}).display_name,
    })),
  };
  const languages = [...new Set([loaded.project.primaryLanguage, ...loaded.project.availableLanguages].map((l) => l.toLowerCase()))];
  const pct = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 100);

  return (
    <article className="flex flex-col gap-6">
      <ProjectBanner
        projectId={project.id}
        title={project.displayName}
        owner={project.owner.displayName}
        avatar={localUploadUrlOrNull(loaded.avatar, publicBaseUrl())}
        background={localUploadUrlOrNull(loaded.background, publicBaseUrl())}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <AboutNav projectId={project.id} pages={about} current={null} />
        {languages.length > 1 && <LanguageChooser languages={languages} current={language} />}
      </div>
      {project.description && <p className="text-lg text-gray-800">{project.description}</p>}

      <section aria-labelledby="get-started" className="flex flex-col gap-3">
        <h2 id="get-started" className="text-xl font-semibold">
          Get started
        </h2>
        {project.workflowDescription.trim() && <ServerMarkdown source={project.workflowDescription} className="text-gray-800" />}
        {project.workflows.length ? (
          <ul className="grid gap-3 sm:grid-cols-2">
            {project.workflows.map((w) => (
              <li key={w.id} className="flex flex-col gap-2 rounded-lg border border-gray-200 bg-white p-4">
                <Link
                  href={
                    `/projects/${project.id}/classify?workflow=${w.id}` +
                    (language !== loaded.project.primaryLanguage.toLowerCase() ? `&language=${language}` : "")
                  }
                  className={
                    "rounded bg-brand-600 px-4 py-2 text-center font-semibold text-white " +
                    "hover:bg-brand-700 focus:outline focus:outline-2 focus:outline-offset-2 " +
                    "focus:outline-brand-600"
                  }
                >
                  Classify: {w.displayName}
                </Link>
                <div className="flex items-center gap-2 text-sm text-gray-700">
                  <span className="shrink-0">{pct(w.completeness)}% complete</span>
                  <ProgressBar max={100} value={pct(w.completeness)} label={`${w.displayName}: ${pct(w.completeness)}% complete`} />
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <p className="rounded border border-gray-200 bg-white p-4">This project has no active workflow to classify yet.</p>
        )}
      </section>

      <dl className="grid grid-cols-2 gap-4 rounded-lg border border-gray-200 bg-white p-4 text-center sm:grid-cols-4">
        {[
          ["Volunteers", project.classifiersCount],
          ["Classifications", project.classificationsCount],
          ["Subjects", project.subjectsCount],
          ["Retired", project.retiredSubjectsCount],
        ].map(([label, n]) => (
          <div key={label as string}>
            <dt className="text-xs text-gray-600">{label}</dt>
            <dd className="text-xl font-semibold">{formatNumber(n as number)}</dd>
          </div>
        ))}
      </dl>

      {project.introduction.trim() && (
        <section aria-labelledby="introduction">
          <h2 id="introduction" className="mb-2 text-xl font-semibold">
            Introduction
          </h2>
          <ServerMarkdown source={project.introduction} className="text-gray-800" />
        </section>
      )}

      {project.researcherQuote.trim() && (
        <section aria-labelledby="researcher-quote">
          <h2 id="researcher-quote" className="mb-2 text-xl font-semibold">
            From the researchers
          </h2>
          <figure className="rounded-lg border-l-4 border-brand-600 bg-white p-4">
            <blockquote className="whitespace-pre-line text-lg text-gray-800 italic">{project.researcherQuote}</blockquote>
            <figcaption className="mt-2 text-sm text-gray-600">The {project.displayName} team</figcaption>
          </figure>
        </section>
      )}

      {recents.length > 0 && <RecentClassifications recents={recents} />}

      <TeamAndOrganizations team={team} organizations={organizations} />

      <section aria-labelledby="statistics">
        <h2 id="statistics" className="mb-2 text-xl font-semibold">
          Statistics
        </h2>
        <ProjectStatistics projectId={String(project.id)} />
        <p className="mt-2">
          <Link href={`/stats?project_id=${project.id}`} className="text-brand-700 underline">
            Classification statistics for this project
          </Link>
        </p>
      </section>

      {canEdit && (
        <p>
          <Link href={`/lab/projects/${project.id}`} className="text-brand-700 underline">
            Open this project in the lab
          </Link>
        </p>
      )}
    </article>
  );
}

type Loaded = NonNullable<Awaited<ReturnType<typeof loadProjectPage>>>;

/** The signed-in volunteer's recent classifications of this project: a subject's picture and day each. */
function RecentClassifications({ recents }: { recents: Loaded["recents"] }) {
  return (
    <section aria-labelledby="recents">
      <h2 id="recents" className="mb-2 text-xl font-semibold">
        Your recent classifications
      </h2>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="recents">
        {recents.map((r) => (
          <li key={r.subjectId} className="overflow-hidden rounded border border-gray-200 bg-white">
            {r.mime.startsWith("image/") ? (
              <img
                src={localUploadUrl(r.url, publicBaseUrl())}
                alt={`Subject ${r.subjectId}`}
                className="aspect-square w-full object-cover"
                loading="lazy"
              />
            ) : (
              <p className="aspect-square p-2 text-sm">Subject {r.subjectId}</p>
            )}
            <p className="px-2 py-1 text-xs text-gray-600">
              Subject {r.subjectId}, {formatDay(r.classifiedAt, "day-month")}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The team with their roles, and the organisations the project is part of. */
function TeamAndOrganizations({ team, organizations }: { team: Loaded["team"]; organizations: Loaded["organizations"] }) {
  return (
    <>
      {team.length > 0 && (
        <section aria-labelledby="team">
          <h2 id="team" className="mb-2 text-xl font-semibold">
            The team
          </h2>
          <ul className="flex flex-wrap gap-3" data-testid="team">
            {team.map((m) => (
              <li key={m.id} className="rounded border border-gray-200 bg-white px-3 py-2">
                <span className="font-medium">{m.displayName}</span>{" "}
                <span className="text-sm text-gray-600">({m.roles.map((r) => ROLE_NAMES[r] ?? r).join(", ")})</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {organizations.length > 0 && (
        <p>
          Part of{" "}
          {organizations.map((o, i) => (
            <span key={o.id}>
              {i > 0 && ", "}
              <Link href={`/organizations/${o.id}`} className="text-brand-700 underline">
                {o.displayName}
              </Link>
            </span>
          ))}
        </p>
      )}
    </>
  );
}
