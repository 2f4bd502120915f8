// GET/PUT/DELETE /engine/workflows/<id>/user_rules/<rule id>/user_rule_effects/<effect id>: one effect.
import { effectMemberRoutes } from "@/lib/engine/http/engine-config-resources";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = effectMemberRoutes("user");

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
