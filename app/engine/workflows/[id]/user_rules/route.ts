// GET/POST /engine/workflows/<id>/user_rules: the workflow's user rules (a new one is evaluated last).
import { ruleCollectionRoutes } from "@/lib/engine/http/engine-config-resources";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = ruleCollectionRoutes("user");

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
