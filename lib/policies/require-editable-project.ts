import type { Actor } from "@/lib/auth/actor";
import { forbidden, notFound } from "@/lib/errors";
import { parseIdValue } from "@/lib/text/params";
import { canOnProject, projectReadScope } from "@/lib/policies/project-policy";
import type { Tx } from "@/lib/db/types";

/** The id of a project the actor may edit: 422 for a malformed id, 404 when invisible, 403 when read-only. */
export async function requireEditableProject(tx: Tx, actor: Actor, rawId: unknown, what = "links.project"): Promise<number> {
  const id = parseIdValue(rawId, what);
  const project = await tx.project.findFirst({ where: { AND: [{ id }, projectReadScope(actor)] }, select: { id: true } });
  if (!project) throw notFound(`Could not find projects with id='${id}'`);
  if (!(await canOnProject(actor, "update", id, tx))) throw forbidden("Only the project's owner and collaborators may do that");
  return id;
}
