import { ANONYMOUS, resolveActor } from "@/lib/auth/actor";
import { forbidden, notFound, unauthorized } from "@/lib/errors";
import { jsonRoute } from "@/lib/http/api-route";
import { parsePathId } from "@/lib/text/params";
import { json } from "@/lib/http/respond";
import {
  classificationCounts,
  groupClassificationCounts,
  parseCountsQuery,
  userClassificationCounts,
} from "@/lib/counts/classification-counts";
import { db } from "@/lib/db";
import { userGroupReadScope } from "@/lib/policies/user-group-policy";
import { countsCaller, countsViewer } from "@/lib/counts/visible-projects";

// Public, cacheable for a few seconds (counts are folded every second), readable from any site. Answers
// about given projects or workflows depend on who asks (a private project's counts are its team's), so
// they vary by credentials, and one to a signed-in caller is not stored by shared caches.
const PUBLIC_HEADERS = {
  "Cache-Control": "public, max-age=5, stale-while-revalidate=55",
  "Access-Control-Allow-Origin": "*",
  Vary: "Authorization, Cookie",
};
const SIGNED_IN_HEADERS = { ...PUBLIC_HEADERS, "Cache-Control": "private, max-age=5" };

/**
 * GET /counts/classifications. A private project's (or its workflows') counts are shown to whoever may see
 * the project (lib/policies/project-policy.ts); to anyone else, with any credentials or none, the answer is
 * exactly that for an id no project has. The caller is only looked up when ids are given.
 */
export const countsRoute = jsonRoute({ scope: "none" }, async (req) => {
  const query = parseCountsQuery(new URL(req.url));
  const scoped = !!(query.projectIds ?? query.workflowIds);
  const actor = scoped ? await countsCaller(req) : ANONYMOUS;
  return json(await classificationCounts(query, countsViewer(actor)), 200, actor.user ? SIGNED_IN_HEADERS : PUBLIC_HEADERS);
});

export const userCountsRoute = jsonRoute({ scope: "public" }, async (req, params) => {
  const userId = parsePathId(params.id, "users");
  const query = parseCountsQuery(new URL(req.url), { allowWorkflow: false });
  const actor = await resolveActor(req);
  if (!actor.user) throw unauthorized("Sign in to see your counts");
  if (actor.user.id !== userId && !actor.user.admin) throw forbidden("You may only see your own counts");
  return json(await userClassificationCounts(userId, query, countsViewer(actor)), 200, { "Cache-Control": "private, no-store" });
});

/**
 * GET /counts/classifications/user_groups/<id>: the group's active members' counts together, and per member
 * when the group's stats_visibility shows individuals to the caller:
 *   private_agg_only (members: together), private_show_agg_and_ind (members: both),
 *   public_agg_only (anyone: together), public_agg_show_ind_if_member (anyone: together; members: both),
 *   public_show_all (anyone: both). Admins see both. A group the caller may not see is a 404.
 */
export const userGroupCountsRoute = jsonRoute({ scope: "none" }, async (req, params) => {
  const groupId = parsePathId(params.id, "user_groups");
  const query = parseCountsQuery(new URL(req.url), { allowWorkflow: false });
  const actor = await resolveActor(req);
  const group = await db().userGroup.findFirst({
    where: { AND: [{ id: groupId }, userGroupReadScope(actor)] },
    include: { memberships: { where: { state: "active" }, select: { userId: true } } },
  });
  if (!group) throw notFound(`Could not find user_groups with id='${groupId}'`);
  const memberIds = group.memberships.map((m) => m.userId);
  const member = !!actor.user && memberIds.includes(actor.user.id);
  const admin = !!actor.user?.admin;
  const visibility = group.statsVisibility;
  if (visibility.startsWith("private") && !member && !admin) {
    if (!actor.user) throw unauthorized("Sign in to see this group's counts");
    throw forbidden("This group's counts are visible to its members only");
  }
  const individuals =
    admin ||
    visibility === "public_show_all" ||
    (member && (visibility === "private_show_agg_and_ind" || visibility === "public_agg_show_ind_if_member"));
  return json(await groupClassificationCounts(memberIds, query, individuals, countsViewer(actor)), 200, {
    "Cache-Control": "private, no-store",
  });
});
