import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { readQueueState } from "@/lib/db/queue-state";
import { readinessOf, type ReadinessItem } from "./launch";

// What the site admin's console (/admin) shows an admin: the projects waiting for a beta or launch review
// (with their readiness), the launched projects to feature, the platform's figures, and a page of the
// recorded admin actions. Writes go through the API from the browser (approvals and featuring through
// PUT /api/projects/<id>, refusals through /api/projects/<id>/review_refusals, users through
// PUT /api/users/<id>), so authorization and the record stay in one place.

export const ACTIONS_PAGE_SIZE = 20;
const QUEUE_SIZE = 50;
const LAUNCHED_SIZE = 50;

export interface ReviewItem {
  review: "beta" | "launch";
  id: number;
  displayName: string;
  slug: string;
  owner: string;
  private: boolean;
  updatedAt: Date;
  checklist: ReadinessItem[];
}

export interface AdminActionRow {
  id: number;
  kind: string;
  admin: string;
  targetType: string;
  targetId: number;
  /** The project's name or the user's login (null when the record is gone). */
  target: string | null;
  changes: Record<string, { from: unknown; to: unknown }>;
  reason: string | null;
  createdAt: Date;
}

const REVIEW_SELECT = {
  id: true,
  displayName: true,
  slug: true,
  private: true,
  updatedAt: true,
  owner: { select: { login: true } },
} as const;

/** The console for an admin, or null for anyone else (the page is then a 404). `actionsPage` counts from 1. */
export async function loadAdminConsole(actor: Actor, actionsPage: number) {
  if (!actor.user?.admin) return null;
  const [betaQueue, launchQueue, launched, figures, actions] = await Promise.all([
    db().project.findMany({
      where: { betaRequested: true, beta: false },
      orderBy: { updatedAt: "asc" },
      take: QUEUE_SIZE,
      select: REVIEW_SELECT,
    }),
    db().project.findMany({
      where: { launchRequested: true, launchApproved: false },
      orderBy: { updatedAt: "asc" },
      take: QUEUE_SIZE,
      select: REVIEW_SELECT,
    }),
    db().project.findMany({
      where: { launchApproved: true },
      orderBy: [{ featured: "desc" }, { launchDate: { sort: "desc", nulls: "last" } }, { id: "desc" }],
      take: LAUNCHED_SIZE,
      select: { id: true, displayName: true, featured: true, private: true, launchDate: true },
    }),
    platformFigures(),
    adminActionsPage(actionsPage),
  ]);
  const queue: ReviewItem[] = await Promise.all(
    [...launchQueue.map((p) => ({ p, review: "launch" as const })), ...betaQueue.map((p) => ({ p, review: "beta" as const }))].map(
      async ({ p, review }) => ({
        review,
        id: p.id,
        displayName: p.displayName,
        slug: p.slug,
        owner: p.owner.login,
        private: p.private,
        updatedAt: p.updatedAt,
        checklist: await readinessOf(p.id),
      }),
    ),
  );
  return { adminId: actor.user.id, queue, launched, figures, actions };
}

/** Users, projects, classifications today (UTC, from the daily rollups), the engine inbox and the job queue. */
async function platformFigures() {
  const today = new Date(new Date().toISOString().slice(0, 10));
  const [users, projects, launched, today_, queues] = await Promise.all([
    db().user.count(),
    db().project.count(),
    db().project.count({ where: { launchApproved: true } }),
    db().classificationDailyCount.findUnique({
      where: { scope_scopeId_day: { scope: "all", scopeId: 0, day: today } },
      select: { count: true },
    }),
    readQueueState(),
  ]);
  return {
    users,
    projects,
    launchedProjects: launched,
    classificationsToday: today_?.count ?? 0,
    inboxDepth: queues.inboxDepth,
    inboxOldestSeconds: queues.inboxOldestSeconds,
    jobs: queues.jobs,
  };
}

/** One page of the recorded admin actions, newest first, with the admin's login and the target's name. */
export async function adminActionsPage(page: number) {
  const [total, rows] = await Promise.all([
    db().adminAction.count(),
    db().adminAction.findMany({
      orderBy: { id: "desc" },
      skip: (page - 1) * ACTIONS_PAGE_SIZE,
      take: ACTIONS_PAGE_SIZE,
      include: { admin: { select: { login: true } } },
    }),
  ]);
  const ids = (type: string) => [...new Set(rows.filter((r) => r.targetType === type).map((r) => r.targetId))];
  const [projects, users] = await Promise.all([
    db().project.findMany({ where: { id: { in: ids("project") } }, select: { id: true, displayName: true } }),
    db().user.findMany({ where: { id: { in: ids("user") } }, select: { id: true, login: true } }),
  ]);
  const names = new Map<string, string>([
    ...projects.map((p) => [`project:${p.id}`, p.displayName] as const),
    ...users.map((u) => [`user:${u.id}`, u.login] as const),
  ]);
  const list: AdminActionRow[] = rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    admin: r.admin.login,
    targetType: r.targetType,
    targetId: r.targetId,
    target: names.get(`${r.targetType}:${r.targetId}`) ?? null,
    changes: r.changes as AdminActionRow["changes"],
    reason: r.reason,
    createdAt: r.createdAt,
  }));
  return { rows: list, page, pages: Math.max(1, Math.ceil(total / ACTIONS_PAGE_SIZE)), total };
}
