import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { resolveActor } from "@/lib/auth/actor";
import { isIdString } from "@/lib/text/params";
import { loadEditableProject } from "@/lib/pages/lab";

/** Who is looking at a lab page (from the browser session). */
export async function labActor() {
  const h = await headers();
  return resolveActor(new Request("http://local/", { headers: { cookie: h.get("cookie") ?? "" } }));
}

/**
 * The project a lab page edits, or null when the visitor may not edit it (the page is then a 404, as the
 * API answers for records one has no role on).
 */
export async function editableProject(id: string) {
  if (!isIdString(id)) return null;
  const actor = await labActor();
  return loadEditableProject(Number(id), actor);
}

/** A lab page's project and workflow from its route params (`/lab/projects/<id>/workflows/<wid>/...`), else a 404. */
export async function editableWorkflow(params: Promise<{ id: string; wid: string }>) {
  const { id, wid } = await params;
  const project = await editableProject(id);
  const workflow = project?.workflows.find((w) => String(w.id) === wid);
  if (!project || !workflow) notFound();
  return { project, workflow };
}

export { workflowExtras } from "@/lib/pages/lab";
