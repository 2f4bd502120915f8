import { projectTitle } from "@/app/page-titles";
import { Link } from "@/components/ui/link";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { Classifier } from "@/components/classifier/classifier";
import { resolveActor } from "@/lib/auth/actor";
import { loadClassifyProject, projectRolesOf } from "@/lib/pages/classify";
import { isIdString } from "@/lib/text/params";
import type { Tasks } from "@/lib/classifier/task-flow";
import { GOLD_STANDARD_ROLES } from "@/lib/domain/load-workflow";
import { LanguageChooser } from "@/components/project/language-chooser-lazy";
import { chooseLanguage, LANGUAGE_COOKIE, translated, translationsOf } from "@/lib/domain/translate";
import { applyStrings } from "@/lib/i18n/strings";

export const generateMetadata = projectTitle("Classify");

export const dynamic = "force-dynamic";

/**
 * The volunteer classifier for a project: the workflow named by ?workflow=, else the project's
 * configuration.default_workflow, else its first active workflow. Private projects are a 404 to those
 * without a role, as in the API.
 */
export default async function ClassifyPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ workflow?: string; language?: string }>;
}) {
  const { id } = await params;
  const { workflow: wanted, language: asked } = await searchParams;
  if (!isIdString(id) || (wanted !== undefined && !isIdString(wanted))) notFound();
  const h = await headers();
  const actor = await resolveActor(new Request("http://local/", { headers: { cookie: h.get("cookie") ?? "" } }));
  const project = await loadClassifyProject(Number(id), actor);
  if (!project) notFound();
  const preferred = wanted ?? String((project.configuration as { default_workflow?: unknown } | null)?.default_workflow ?? "");
  const workflow = project.workflows.find((w) => String(w.id) === preferred) ?? (wanted ? undefined : project.workflows[0]);
  if (wanted && !workflow) notFound();
  // The chosen language's strings (project name, workflow names and the workflow's tasks), where translated.
  const language = chooseLanguage(project, asked, h.get("cookie")?.match(new RegExp(`(?:^|; )${LANGUAGE_COOKIE}=([^;]+)`))?.[1]);
  const projectName = (await translated("project", project.id, language, project.primaryLanguage, { display_name: project.displayName }))
    .display_name;
  const names = await translationsOf(
    "workflow",
    project.workflows.map((w) => w.id),
    language,
  );
  const workflowName = (w: { id: number; displayName: string }) =>
    applyStrings({ display_name: w.displayName }, names.get(w.id) ?? {}).display_name;
  const shown =
    workflow &&
    applyStrings({ display_name: workflow.displayName, tasks: workflow.tasks as Record<string, unknown> }, names.get(workflow.id) ?? {});
  // Owners, collaborators and experts may classify in gold standard mode (the API checks it again).
  const roles = actor.user ? await projectRolesOf(project.id, actor.user.id) : [];
  const mayGoldStandard = !!actor.user && (actor.user.admin || roles.some((r) => (GOLD_STANDARD_ROLES as readonly string[]).includes(r)));
  const languages = [...new Set([project.primaryLanguage, ...project.availableLanguages].map((l) => l.toLowerCase()))];

  return (
    // Wider than the site's column on a large screen (up to 16rem more on each side), and closer to the site's
    // header (components/classifier/subject-viewer.tsx counts on it): the subject takes the room.
    <article className="flex flex-col gap-3 sm:gap-4 lg:-mt-4 lg:mx-[max(calc(32rem_-_50vw),-16rem)]">
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-lg font-bold sm:text-2xl">
          <Link href={`/projects/${project.id}`} className="hover:underline">
            {projectName}
          </Link>
          <span className="text-gray-500"> · Classify</span>
        </h1>
        {languages.length > 1 && <LanguageChooser languages={languages} current={language} />}
        {project.workflows.length > 1 && (
          <nav aria-label="Workflows" className="flex flex-wrap gap-2 text-sm">
            {project.workflows.map((w) => (
              <Link
                key={w.id}
                href={`/projects/${project.id}/classify?workflow=${w.id}`}
                aria-current={w.id === workflow?.id ? "page" : undefined}
                className={
                  "rounded border px-3 py-1 " +
                  (w.id === workflow?.id ? "border-brand-600 bg-brand-50 font-semibold" : "border-gray-300 bg-white hover:bg-gray-100")
                }
              >
                {workflowName(w)}
              </Link>
            ))}
          </nav>
        )}
      </header>
      {workflow ? (
        <Classifier
          projectId={String(project.id)}
          workflow={{
            id: String(workflow.id),
            displayName: shown!.display_name,
            version: `${workflow.majorVersion}.${workflow.minorVersion}`,
            tasks: shown!.tasks as Tasks,
            firstTask: workflow.firstTask,
          }}
          language={language === project.primaryLanguage.toLowerCase() ? null : language}
          primaryLanguage={project.primaryLanguage}
          mayGoldStandard={mayGoldStandard}
          signedIn={!!actor.user}
        />
      ) : (
        <p role="status" className="rounded border border-gray-200 bg-white p-6">
          This project has no active workflow to classify yet.
        </p>
      )}
    </article>
  );
}
