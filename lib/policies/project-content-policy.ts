import type { Actor } from "@/lib/auth/actor";
import { forbidden, notFound } from "@/lib/errors";
import { parseIdValue } from "@/lib/text/params";
import { sameLanguage } from "@/lib/text/language-code";
import type { Tx } from "@/lib/db/types";
import { canOnProject, projectReadScope } from "./project-policy";

// Who writes a project's text in one language (field guides, tutorials and mini-courses): the project's
// editors in any language; its translators in languages other than the project's primary one, whose text
// is the editors' own. Reading follows the project (projectReadScope).

export async function canWriteProjectContent(
  actor: Actor,
  projectId: number,
  primaryLanguage: string,
  language: string,
  tx: Tx,
): Promise<boolean> {
  if (await canOnProject(actor, "update", projectId, tx)) return true;
  return !sameLanguage(language, primaryLanguage) && canOnProject(actor, "translate", projectId, tx);
}

/**
 * The project named by a create's links.project, when the actor may write its content in `language`:
 * 422 for a malformed id, 404 when the actor cannot see the project, 403 when it may not write there.
 */
export async function requireProjectContentWriter(
  tx: Tx,
  actor: Actor,
  rawId: unknown,
  language: string,
): Promise<{ id: number; primaryLanguage: string }> {
  const id = parseIdValue(rawId, "links.project");
  const project = await tx.project.findFirst({
    where: { AND: [{ id }, projectReadScope(actor)] },
    select: { id: true, primaryLanguage: true },
  });
  if (!project) throw notFound(`Could not find projects with id='${id}'`);
  if (!(await canWriteProjectContent(actor, id, project.primaryLanguage, language, tx))) {
    throw forbidden(
      `Only the project's owner and collaborators (and its translators, for languages other than '${project.primaryLanguage}') may do that`,
    );
  }
  return project;
}
