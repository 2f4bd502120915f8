import { Link } from "@/components/ui/link";
import { ProjectList } from "@/components/project-list";
import { startClassifyingProject } from "@/lib/pages/home";

// Read at every request: the project "Start classifying" leads to changes as projects are featured and busy.
export const dynamic = "force-dynamic";

/** The home page: what Quorum is in a line, a way straight into classifying, then the projects. */
export default async function HomePage() {
  const start = await startClassifyingProject();
  return (
    <div className="flex flex-col gap-8">
      <section id="about" aria-labelledby="about-heading" className="flex flex-col gap-3 rounded-lg bg-brand-50 p-6">
        <h1 id="about-heading" className="text-2xl font-bold sm:text-3xl">
          Help researchers, one classification at a time
        </h1>
        <p className="max-w-2xl text-gray-800" data-testid="explainer">
          Quorum is a citizen-science platform: volunteers look at images and other data from research projects and answer a few simple
          questions, and their combined answers become results researchers use.
        </p>
        <p className="flex flex-wrap items-center gap-3">
          {start ? (
            <Link
              href={`/projects/${start.id}/classify`}
              className="rounded bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700 focus:outline focus:outline-2 focus:outline-offset-2 focus:outline-brand-600"
            >
              Start classifying<span className="sr-only">: {start.displayName}</span>
            </Link>
          ) : (
            <a
              href="#projects-heading"
              className="rounded bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700 focus:outline focus:outline-2 focus:outline-offset-2 focus:outline-brand-600"
            >
              Browse the projects
            </a>
          )}
          {start && (
            <span className="text-sm text-gray-700">
              with{" "}
              <Link href={`/projects/${start.id}`} className="font-medium text-brand-700 underline">
                {start.displayName}
              </Link>
              , or choose a project below. No account needed.
            </span>
          )}
        </p>
      </section>
      <ProjectList />
    </div>
  );
}
