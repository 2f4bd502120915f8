import { db } from "@/lib/db";
import { dispatchRun, NO_AGGREGATION_SERVICE, recordRun, ZCreateAggregation } from "@/lib/domain/start-aggregation";
import { apiRoute } from "@/lib/http/api-route";
import { findVisible, recordBody, requireWriter, showResponse } from "@/lib/http/resource-routes";
import { aggregations } from "@/lib/resources/aggregations";

/** POST /api/aggregations: record the run, then start it on the service (outside the transaction). */
export const startAggregationRoute = apiRoute({ scope: aggregations.tokenScopes.write }, async (ctx) => {
  const actor = await ctx.actor();
  requireWriter(actor);
  const input = ZCreateAggregation.parse(await recordBody(ctx, aggregations.type));
  const serviceUrl = process.env.AGGREGATION_SERVICE_URL?.trim() || null;
  const run = await db().$transaction((tx) => recordRun(tx, actor, input, serviceUrl ? null : NO_AGGREGATION_SERVICE), { timeout: 15_000 });
  if (serviceUrl) await dispatchRun(run, serviceUrl);
  return showResponse(aggregations, await findVisible(aggregations, run.id, actor), ctx, 201);
});
