// GET /api/classifications (the caller's complete classifications) and POST (create a classification).
import { createClassification, parseIdempotencyKey, ZCreateClassification } from "@/lib/domain/create-classification";
import { resolveCaller } from "@/lib/auth/actor";
import { apiRoute } from "@/lib/http/api-route";
import { unprocessable } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/request";
import { collectionRoutes, showResponse } from "@/lib/http/resource-routes";
import { classifications, ownCompleteClassifications } from "@/lib/resources/classifications";
import { methodNotAllowed } from "@/lib/http/missing-routes";
import { clientAddress } from "@/lib/net/peer-address";

export const { GET } = collectionRoutes(ownCompleteClassifications);

export const POST = apiRoute({ scope: "classification" }, async (ctx) => {
  const body = await readJsonBody(ctx.req);
  const extra = Object.keys(body).filter((k) => k !== "classifications");
  if (extra.length) throw unprocessable(`Unknown top-level key(s) ${extra.map((k) => `'${k}'`).join(", ")}; expected 'classifications'`);
  const input = ZCreateClassification.parse(body.classifications);
  const key = parseIdempotencyKey(ctx.req.headers.get("idempotency-key"));
  // A bearer token's grant is checked in the create's own statement (resolveCaller); the answer is then
  // made for the actor that statement confirmed.
  const caller = await resolveCaller(ctx.req, "classification");
  const { classification, replayed, actor } = await createClassification(caller, input, clientAddress(ctx.req) ?? undefined, key);
  const res = await showResponse(classifications, classification, { ...ctx, actor: async () => actor }, 201);
  if (replayed) res.headers.set("Idempotent-Replayed", "true");
  return res;
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
