import Link from "next/link";
import { notFound } from "next/navigation";
import { db } from "@/lib/db";
import { resolveActor } from "@/lib/auth/actor";
import { projectReadScope, rolesAllow } from "@/lib/policies/project-policy";
import { headers } from "next/headers";
import { isIdString } from "@/lib/http/request";

export const dynamic = "force-dynamic";

export default async function ProjectPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isIdString(id)) notFound();
  const h = await headers();
  const actor = await resolveActor(new Request("http://local/", { headers: { cookie: h.get("cookie") ?? "" } }));
  const project = await db().project.findFirst({ where: { AND: [{ id: Number(id) }, projectReadScope(actor)] }, include: { owner: { select: { displayName: true } }, workflows: { where: { active: true }, select: { id: true, displayName: true } } } });
  if (!project) notFound();
  const roles = actor.user ? ((await db().projectRole.findFirst({ where: { projectId: project.id, userId: actor.user.id }, select: { roles: true } }))?.roles ?? []) : [];
  const canEdit = !!actor.user && (actor.user.admin || rolesAllow(roles, "update"));
  return (
    <article className="flex flex-col gap-4">
      <header>
        <h1 className="text-3xl font-bold">{project.displayName}</h1>
        <p className="text-sm text-gray-600">by {project.owner.displayName}</p>
      </header>
      {project.description && <p className="text-lg text-gray-800">{project.description}</p>}
      <dl className="grid max-w-xl grid-cols-3 gap-4 rounded-lg border border-gray-200 bg-white p-4 text-center">
        <div>
          <dt className="text-xs text-gray-600">Classifications</dt>
          <dd className="text-xl font-semibold">{project.classificationsCount.toLocaleString("en-GB")}</dd>
        </div>
        <div>
          <dt className="text-xs text-gray-600">Subjects</dt>
          <dd className="text-xl font-semibold">{project.subjectsCount.toLocaleString("en-GB")}</dd>
        </div>
        <div>
          <dt className="text-xs text-gray-600">Retired</dt>
          <dd className="text-xl font-semibold">{project.retiredSubjectsCount.toLocaleString("en-GB")}</dd>
        </div>
      </dl>
      {project.workflows.length > 0 && (
        <nav aria-label="Classify" className="flex flex-wrap gap-2">
          {project.workflows.map((w) => (
            <Link key={w.id} href={`/projects/${project.id}/classify?workflow=${w.id}`} className="rounded bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700">
              Classify: {w.displayName}
            </Link>
          ))}
        </nav>
      )}
      {project.introduction && <p className="whitespace-pre-line text-gray-800">{project.introduction}</p>}
      <p>
        <Link href={`/stats?project_id=${project.id}`} className="text-brand-700 underline">
          Classification statistics for this project
        </Link>
      </p>
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
