// GET/POST /engine/workflows/<id>/user_rules/<rule id>/user_rule_effects: a user rule's effects, in order.
import { effectCollectionRoutes } from "@/lib/engine/http/engine-config-resources";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = effectCollectionRoutes("user");

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
