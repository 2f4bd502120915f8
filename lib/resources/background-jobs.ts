import type { BackgroundJob } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db";
import { parseIdList } from "@/lib/text/params";
import { PROJECT_PERMISSIONS } from "@/lib/policies/project-policy";
import { signedUrl } from "@/lib/storage/signed-urls";
import type { ResourceDef } from "@/lib/http/resource-def";
import { iso } from "./wire";

// Long work a project team starts and watches (subject manifest imports, CSV exports). Visible to the
// project's owner and collaborators (and admins); created only by the endpoints that start the work.

export function serializeBackgroundJob(j: BackgroundJob) {
  return {
    id: String(j.id),
    kind: j.kind,
    status: j.status,
    progress: j.progress,
    total: j.total,
    error: j.error,
    params: j.params,
    download_url: null as string | null,
    created_at: iso(j.createdAt),
    updated_at: iso(j.updatedAt),
    finished_at: iso(j.finishedAt),
    href: `/background_jobs/${j.id}`,
    links: { project: String(j.projectId), user: j.userId === null ? null : String(j.userId) },
  };
}

export const backgroundJobs: ResourceDef<BackgroundJob> = {
  type: "background_jobs",
  table: "background_jobs",
  model: "backgroundJob",
  tokenScopes: { read: "project", write: "project" },
  serialize: serializeBackgroundJob,
  // A finished export answers a signed download URL valid for an hour (UPLOAD_URL_TTL).
  present: async (record, row) =>
    row.status === "completed" && row.resultPath ? { ...record, download_url: await signedUrl("GET", row.resultPath) } : record,
  linkTemplates: {
    project: { href: "/projects/{background_jobs.project}", type: "projects" },
    user: { href: "/users/{background_jobs.user}", type: "users" },
  },
  filters: {
    project_id: (v) => ({ projectId: { in: parseIdList(v, "project_id") } }),
    kind: (v) => ({ kind: v }),
    status: (v) => ({ status: v }),
  },
  sortable: { id: "id", created_at: "createdAt", updated_at: "updatedAt" },
  readScope: async (actor) => {
    if (actor.user?.admin) return {};
    if (!actor.user) return { id: -1 };
    const roles = await db().projectRole.findMany({
      where: { userId: actor.user.id, roles: { hasSome: [...PROJECT_PERMISSIONS.update] } },
      select: { projectId: true },
    });
    return { projectId: { in: roles.map((r) => r.projectId) } };
  },
  can: (_actor, action) => action === "show",
};
