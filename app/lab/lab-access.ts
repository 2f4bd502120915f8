import { headers } from "next/headers";
import { resolveActor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { isIdString } from "@/lib/http/request";
import { projectReadScope, rolesAllow } from "@/lib/policies/project-policy";

/**
 * The project a lab page edits, or null when the visitor may not edit it (the page is then a 404, as the
 * API answers for records one has no role on).
 */
export async function editableProject(id: string) {
  if (!isIdString(id)) return null;
  const h = await headers();
  const actor = await resolveActor(new Request("http://local/", { headers: { cookie: h.get("cookie") ?? "" } }));
  if (!actor.user) return null;
  const project = await db().project.findFirst({
    where: { AND: [{ id: Number(id) }, projectReadScope(actor)] },
    select: {
      id: true,
      displayName: true,
      roles: { where: { userId: actor.user.id }, select: { roles: true } },
      subjectSets: { orderBy: { id: "asc" }, select: { id: true, displayName: true, setMemberSubjectsCount: true } },
      workflows: { orderBy: { id: "asc" }, select: { id: true, displayName: true, active: true, tasks: true, firstTask: true, retirement: true, majorVersion: true, minorVersion: true } },
    },
  });
  if (!project) return null;
  if (!actor.user.admin && !rolesAllow(project.roles[0]?.roles ?? [], "update")) return null;
  return project;
}
