// GET /api/workflows/<id>/versions: that workflow's versions (the list of /api/workflow_versions?workflow_id=).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";
import { declareScope } from "@/lib/http/route-scope";
import { workflowVersions } from "@/lib/resources/workflow-versions";

const { GET: list } = collectionRoutes(workflowVersions);

// The list checks its scope (workflow_versions' read scope).
export const GET: typeof list = declareScope(workflowVersions.tokenScopes.read, async (req, ctx) => {
  const params = ((await ctx?.params) ?? {}) as Record<string, string>;
  const url = new URL(req.url);
  // The filter checks the id (a 422 for anything that is not one).
  url.searchParams.set("workflow_id", params.id ?? "");
  return list(new Request(url, { headers: req.headers }), ctx);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
