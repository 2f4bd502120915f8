import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { resolveActor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { isIdString } from "@/lib/text/params";
import { projectReadScope, rolesAllow } from "@/lib/policies/project-policy";

/**
 * The project a lab page edits, or null when the visitor may not edit it (the page is then a 404, as the
 * API answers for records one has no role on).
 */
/** Who is looking at a lab page (from the browser session). */
export async function labActor() {
  const h = await headers();
  return resolveActor(new Request("http://local/", { headers: { cookie: h.get("cookie") ?? "" } }));
}

export async function editableProject(id: string) {
  if (!isIdString(id)) return null;
  const actor = await labActor();
  if (!actor.user) return null;
  const project = await db().project.findFirst({
    where: { AND: [{ id: Number(id) }, projectReadScope(actor)] },
    select: {
      id: true,
      displayName: true,
      primaryLanguage: true,
      roles: { where: { userId: actor.user.id }, select: { roles: true } },
      subjectSets: { orderBy: { id: "asc" }, select: { id: true, displayName: true, setMemberSubjectsCount: true } },
      workflows: {
        orderBy: { id: "asc" },
        select: {
          id: true,
          displayName: true,
          active: true,
          tasks: true,
          firstTask: true,
          retirement: true,
          configuration: true,
          majorVersion: true,
          minorVersion: true,
          subjectSets: { select: { subjectSetId: true } },
        },
      },
    },
  });
  if (!project) return null;
  if (!actor.user.admin && !rolesAllow(project.roles[0]?.roles ?? [], "update")) return null;
  return project;
}

/** A lab page's project and workflow from its route params (`/lab/projects/<id>/workflows/<wid>/...`), else a 404. */
export async function editableWorkflow(params: Promise<{ id: string; wid: string }>) {
  const { id, wid } = await params;
  const project = await editableProject(id);
  const workflow = project?.workflows.find((w) => String(w.id) === wid);
  if (!project || !workflow) notFound();
  return { project, workflow };
}
