import { resolveActor } from "@/lib/auth/actor";
import { forbidden, unauthorized } from "@/lib/http/api-error";
import { jsonRoute } from "@/lib/http/api-route";
import { parsePathId } from "@/lib/http/request";
import { json } from "@/lib/http/respond";
import { classificationCounts, parseCountsQuery, userClassificationCounts } from "./classification-counts";

// Public, cacheable for a few seconds (counts are folded every second), readable from any site.
const PUBLIC_HEADERS = { "Cache-Control": "public, max-age=5, stale-while-revalidate=55", "Access-Control-Allow-Origin": "*" };

export const countsRoute = jsonRoute(async (req) => json(await classificationCounts(parseCountsQuery(new URL(req.url))), 200, PUBLIC_HEADERS));

export const userCountsRoute = jsonRoute(async (req, params) => {
  const userId = parsePathId(params.id, "users");
  const query = parseCountsQuery(new URL(req.url), { allowWorkflow: false });
  const actor = await resolveActor(req);
  if (!actor.user) throw unauthorized("Sign in to see your counts");
  if (actor.user.id !== userId && !actor.user.admin) throw forbidden("You may only see your own counts");
  return json(await userClassificationCounts(userId, query), 200, { "Cache-Control": "private, no-store" });
});
