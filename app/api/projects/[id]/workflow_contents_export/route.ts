// /api/projects/<id>/workflow_contents_export: gone, as on the established platform (the workflows export
// holds the workflows' contents).
import { AppError } from "@/lib/errors";
import { apiRoute } from "@/lib/http/api-route";
import { methodNotAllowed } from "@/lib/http/missing-routes";

const gone = apiRoute({ scope: "none" }, async () => {
  throw new AppError("gone", "The workflow contents export is gone: use workflows_export, which includes the contents");
});
export { gone as GET, gone as POST };

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
