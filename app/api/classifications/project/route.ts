// GET /api/classifications/project: classifications of projects the caller edits (keyset paging: last_id).
import { apiRoute } from "@/lib/http/api-route";
import { collectionRoutes } from "@/lib/http/resource-routes";
import { projectClassifications, requireProjectIdWithLastId } from "@/lib/resources/classifications";
import { methodNotAllowed } from "@/lib/http/missing-routes";

const list = collectionRoutes(projectClassifications).GET;
export const GET = apiRoute({ scope: "classification" }, async (ctx) => {
  requireProjectIdWithLastId(ctx.url);
  return list(ctx.req);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
