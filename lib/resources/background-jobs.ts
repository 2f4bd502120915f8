import type { BackgroundJob } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db";
import { parseIdList } from "@/lib/text/params";
import { PROJECT_PERMISSIONS } from "@/lib/policies/project-policy";
import { signedUrl } from "@/lib/storage/signed-urls";
import type { ResourceDef } from "@/lib/http/resource-def";
import { iso } from "./wire";
import type { BackgroundJobStatus } from "@/lib/domain/background-jobs";
import type { ExportKind } from "@/lib/domain/export-csv";

// Long work a project team starts and watches (subject manifest imports, CSV exports). Visible to the
// project's owner and collaborators (and admins); created only by the endpoints that start the work.

export function serializeBackgroundJob(j: BackgroundJob) {
  return {
    id: String(j.id),
    kind: j.kind,
    status: j.status as BackgroundJobStatus,
    progress: j.progress,
    total: j.total,
    error: j.error,
    params: j.params as Record<string, unknown>,
    download_url: null as string | null,
    created_at: iso(j.createdAt),
    updated_at: iso(j.updatedAt),
    finished_at: iso(j.finishedAt),
    href: `/background_jobs/${j.id}`,
    links: { project: String(j.projectId), user: j.userId === null ? null : String(j.userId) },
  };
}

/** The job as its readers see it: a finished export answers a signed download URL valid for an hour (UPLOAD_URL_TTL). */
export async function presentBackgroundJob(j: BackgroundJob) {
  const record = serializeBackgroundJob(j);
  return j.status === "completed" && j.resultPath ? { ...record, download_url: await signedUrl("GET", j.resultPath) } : record;
}

export const backgroundJobs: ResourceDef<BackgroundJob> = {
  type: "background_jobs",
  table: "background_jobs",
  model: "backgroundJob",
  tokenScopes: { read: "project", write: "project" },
  serialize: serializeBackgroundJob,
  // `record` is serializeBackgroundJob(row), which presentBackgroundJob completes.
  present: (_record, row) => presentBackgroundJob(row),
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

/**
 * An export as the established platform answers it (GET|POST /api/<projects|workflows>/<id>/<kind>): a
 * `media` record of the CSV, `src` the job's signed download link once ready (presentBackgroundJob's
 * download_url), `metadata.state` creating, ready or failed, with the job's progress.
 */
export function serializeExportMedium(on: "projects" | "workflows", id: number, kind: ExportKind, job: BackgroundJob, src: string | null) {
  const state = job.status === "completed" ? "ready" : job.status === "failed" ? "failed" : "creating";
  return {
    id: String(job.id),
    href: `/${on}/${id}/${kind}`,
    src,
    content_type: "text/csv",
    media_type: `${on.slice(0, -1)}_${kind}`,
    external_link: false,
    created_at: iso(job.createdAt),
    updated_at: iso(job.updatedAt),
    metadata: { state, progress: job.progress, total: job.total, ...(job.error ? { error: job.error } : {}) },
    links: { linked: { id: String(id), href: `/${on}/${id}`, type: on }, background_job: String(job.id) },
  };
}
