// POST /api/projects/<id>/copy: a template project copied for the caller, answered as the new project
// (lib/domain/copy-project.ts); body {} or {"create_subject_set": "<name>"}.
import { copyProjectRoute } from "@/lib/handlers/project-copy-route";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const POST = copyProjectRoute;

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
