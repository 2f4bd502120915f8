import type { Actor, ActorUser } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { projectReadScope } from "@/lib/policies/project-policy";
import { frameMediaOf } from "./media-of";

// The recents page: the subjects the volunteer classified lately, across projects, newest first (each
// subject once, at its last classification), with its project and a picture. The same classifications
// /api/users/<id>/recents reads; only the volunteer's own, of projects
// they may still see.

/** The most subjects the recents page shows. */
export const RECENTS_PAGE_SIZE = 48;

export async function loadRecents(actor: Actor & { user: ActorUser }) {
  const userId = actor.user.id;
  const rows = await db().$queryRawUnsafe<
    { subject_id: number; created_at: Date; project_id: number; workflow_id: number; locations: unknown; project_name: string }[]
  >(
    `SELECT r.subject_id, r.created_at, r.project_id, r.workflow_id, s.locations, p.display_name AS project_name
     FROM (SELECT DISTINCT ON (x.subject_id) x.subject_id, c.created_at, c.project_id, c.workflow_id, c.id
           FROM (SELECT id, created_at, project_id, workflow_id, subject_ids FROM classifications
                 WHERE user_id = $1 AND completed ORDER BY id DESC LIMIT 500) c
           CROSS JOIN LATERAL unnest(c.subject_ids) AS x(subject_id)
           ORDER BY x.subject_id, c.id DESC) r
     JOIN subjects s ON s.id = r.subject_id
     JOIN projects p ON p.id = r.project_id
     ORDER BY r.id DESC, r.subject_id
     LIMIT $2`,
    userId,
    RECENTS_PAGE_SIZE,
  );
  const visible = new Set(
    (
      await db().project.findMany({
        where: { AND: [{ id: { in: [...new Set(rows.map((r) => r.project_id))] } }, projectReadScope(actor)] },
        select: { id: true },
      })
    ).map((p) => p.id),
  );
  return rows
    .filter((r) => visible.has(r.project_id))
    .map((r) => ({
      subjectId: r.subject_id,
      projectId: r.project_id,
      projectName: r.project_name,
      workflowId: r.workflow_id,
      classifiedAt: r.created_at,
      ...frameMediaOf(r.locations),
    }));
}
