import { db } from "@/lib/db";

// Where a project stands on its way to launch, for the lab's launch stepper and the admin console's queue.
// The stored state is the established platform's flags (beta_requested, beta_approved, launch_requested,
// launch_approved, private, live), so its clients keep working; the stage is read from them:
//
//   draft ─ request ─► beta review ─ admin approves ─► beta ─ request ─► launch review ─ admin approves ─► launched
//
// An admin's refusal (POST /api/projects/<id>/review_refusals) clears the request: the project is back at
// the stage before, and the refusal (with its reason) is shown until the team asks again.
//
// Visibility: a private project is seen by its team and admins only, at every stage. A public one can be
// opened by its link by anyone; the home page lists it only once its launch is approved (its "In beta"
// filter lists public beta-approved projects), as the established platform's projects page lists
// launch-approved projects.

export type LaunchStage = "draft" | "beta_review" | "beta" | "launch_review" | "launched";

export interface ReadinessItem {
  key: "active_workflow" | "subjects" | "tutorial" | "retirement";
  label: string;
  done: boolean;
}

export interface LaunchStatus {
  stage: LaunchStage;
  private: boolean;
  live: boolean;
  launchDate: Date | null;
  /** The last review the team asked for was refused (and not asked again since): which, when, why. */
  refusal: { review: "beta" | "launch"; at: Date; reason: string | null } | null;
  checklist: ReadinessItem[];
  ready: boolean;
}

interface Flags {
  beta: boolean;
  betaRequested: boolean;
  launchApproved: boolean;
  launchRequested: boolean;
}

/** The stage the flags say (an approval outranks a request; launch outranks beta). */
export function stageOf(p: Flags): LaunchStage {
  if (p.launchApproved) return "launched";
  if (p.launchRequested) return "launch_review";
  if (p.beta) return "beta";
  if (p.betaRequested) return "beta_review";
  return "draft";
}

/**
 * What a project needs before a review, computed from its records: an active workflow, subjects linked to an
 * active workflow, a tutorial with at least one step, and retirement set (or the decision engine configured)
 * on an active workflow.
 */
export async function readinessOf(projectId: number): Promise<ReadinessItem[]> {
  const [active, tutorials] = await Promise.all([
    db().workflow.findMany({
      where: { projectId, active: true },
      select: { id: true, retirement: true, subjectSets: { select: { subjectSet: { select: { setMemberSubjectsCount: true } } } } },
    }),
    db().tutorial.findMany({ where: { projectId, OR: [{ kind: null }, { kind: "tutorial" }] }, select: { steps: true } }),
  ]);
  const engines = active.length ? await db().engineWorkflow.count({ where: { id: { in: active.map((w) => w.id) } } }) : 0;
  const retirementSet = active.some((w) => typeof (w.retirement as { criteria?: unknown } | null)?.criteria === "string");
  return [
    { key: "active_workflow", label: "An active workflow", done: active.length > 0 },
    {
      key: "subjects",
      label: "Subjects linked to an active workflow",
      done: active.some((w) => w.subjectSets.some((s) => s.subjectSet.setMemberSubjectsCount > 0)),
    },
    {
      key: "tutorial",
      label: "A tutorial",
      done: tutorials.some((t) => Array.isArray(t.steps) && t.steps.length > 0),
    },
    { key: "retirement", label: "Retirement set, or the decision engine configured", done: retirementSet || engines > 0 },
  ];
}

/** The last admin action on the review the project is now before, when it was a refusal. */
async function lastRefusal(projectId: number, review: "beta" | "launch"): Promise<LaunchStatus["refusal"]> {
  const fields = review === "beta" ? ["beta_requested", "beta_approved"] : ["launch_requested", "launch_approved"];
  const rows = await db().$queryRaw<{ kind: string; reason: string | null; created_at: Date }[]>`
    SELECT kind, reason, created_at FROM admin_actions
    WHERE target_type = 'project' AND target_id = ${projectId} AND changes ?| ${fields}::text[]
    ORDER BY id DESC LIMIT 1`;
  const last = rows[0];
  return last?.kind === "refusal" ? { review, at: last.created_at, reason: last.reason } : null;
}

/** Where the project stands (null for no such project): for its team in the lab. */
export async function launchStatus(projectId: number): Promise<LaunchStatus | null> {
  const p = await db().project.findUnique({
    where: { id: projectId },
    select: { beta: true, betaRequested: true, launchApproved: true, launchRequested: true, private: true, live: true, launchDate: true },
  });
  if (!p) return null;
  const stage = stageOf(p);
  const [checklist, refusal] = await Promise.all([
    readinessOf(projectId),
    stage === "draft" ? lastRefusal(projectId, "beta") : stage === "beta" ? lastRefusal(projectId, "launch") : null,
  ]);
  return { stage, private: p.private, live: p.live, launchDate: p.launchDate, refusal, checklist, ready: checklist.every((c) => c.done) };
}
