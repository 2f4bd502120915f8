import { organizationTitle } from "@/app/page-titles";
import Link from "next/link";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { resolveActor } from "@/lib/auth/actor";
import { loadOrganizationPage } from "@/lib/pages/organization";
import { isIdString } from "@/lib/text/params";
import { ServerMarkdown } from "@/components/ui/server-markdown";

export const generateMetadata = organizationTitle;

export const dynamic = "force-dynamic";

/** An organisation's page: its description, introduction and the projects of it the visitor may see. */
export default async function OrganizationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isIdString(id)) notFound();
  const h = await headers();
  const actor = await resolveActor(new Request("http://local/", { headers: { cookie: h.get("cookie") ?? "" } }));
  const organization = await loadOrganizationPage(Number(id), actor);
  if (!organization) notFound();
  return (
    <article className="flex flex-col gap-4">
      <header>
        <h1 className="text-3xl font-bold">{organization.displayName}</h1>
        {organization.description && <p className="text-lg text-gray-800">{organization.description}</p>}
      </header>
      {organization.introduction.trim() && <ServerMarkdown source={organization.introduction} className="text-gray-800" />}
      <section aria-labelledby="org-projects">
        <h2 id="org-projects" className="mb-2 text-xl font-semibold">
          Projects
        </h2>
        {organization.projects.length ? (
          <ul className="grid gap-3 sm:grid-cols-2">
            {organization.projects.map(({ project }) => (
              <li key={project.id} className="rounded-lg border border-gray-200 bg-white p-4">
                <Link href={`/projects/${project.id}`} className="font-semibold text-brand-700 underline">
                  {project.displayName}
                </Link>
                {project.description && <p className="text-sm text-gray-700">{project.description}</p>}
              </li>
            ))}
          </ul>
        ) : (
          <p>No projects to show yet.</p>
        )}
      </section>
    </article>
  );
}
