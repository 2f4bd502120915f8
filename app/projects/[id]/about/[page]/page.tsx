import { projectTitle } from "@/app/page-titles";
import Link from "next/link";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { resolveActor } from "@/lib/auth/actor";
import { isIdString } from "@/lib/text/params";
import { loadProjectPage } from "@/lib/pages/load";
import { ServerMarkdown } from "@/components/ui/server-markdown";
import { localUploadUrlOrNull } from "@/components/ui/upload-url";
import { publicBaseUrl } from "@/lib/env";
import { AboutNav, ProjectBanner } from "@/components/project/project-header";

export const generateMetadata = projectTitle("About");

export const dynamic = "force-dynamic";

/** One of a project's about pages (research, team, results, education, FAQ, or any the team wrote). */
export default async function ProjectAboutPage({ params }: { params: Promise<{ id: string; page: string }> }) {
  const { id, page } = await params;
  if (!isIdString(id)) notFound();
  const h = await headers();
  const actor = await resolveActor(new Request("http://local/", { headers: { cookie: h.get("cookie") ?? "" } }));
  const loaded = await loadProjectPage(Number(id), actor);
  const key = decodeURIComponent(page);
  const shown = loaded?.about.find((p) => p.key === key);
  if (!loaded || !shown) notFound();
  const { project } = loaded;
  return (
    <article className="flex flex-col gap-6">
      <ProjectBanner
        projectId={project.id}
        title={project.displayName}
        owner={project.owner.displayName}
        avatar={localUploadUrlOrNull(loaded.avatar, publicBaseUrl())}
        background={localUploadUrlOrNull(loaded.background, publicBaseUrl())}
      />
      <AboutNav projectId={project.id} pages={loaded.about} current={shown.key} />
      <section aria-labelledby="about-title">
        <h2 id="about-title" className="mb-3 text-2xl font-semibold">
          {shown.title}
        </h2>
        <ServerMarkdown source={shown.content} className="text-gray-800" />
      </section>
      <p>
        <Link href={`/projects/${project.id}`} className="text-brand-700 underline">
          Back to {project.displayName}
        </Link>
      </p>
    </article>
  );
}
