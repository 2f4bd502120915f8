import { refuseReview, ZReviewRefusal } from "@/lib/domain/admin-actions";
import { db } from "@/lib/db";
import { apiRoute } from "@/lib/http/api-route";
import { recordBody, requireWriter, showResponse } from "@/lib/http/resource-routes";
import { parsePathId } from "@/lib/text/params";
import { adminActions } from "@/lib/resources/admin-actions";

/** POST /api/projects/<id>/review_refusals: an admin refuses a pending review (201, the admin action recorded). */
export const refuseReviewRoute = apiRoute({ scope: "project" }, async (ctx) => {
  const id = parsePathId(ctx.params.id, "projects");
  const actor = await ctx.actor();
  requireWriter(actor);
  const input = ZReviewRefusal.parse(await recordBody(ctx, "review_refusals"));
  const action = await db().$transaction((tx) => refuseReview(tx, actor, id, input));
  return showResponse(adminActions, action, ctx, 201);
});
