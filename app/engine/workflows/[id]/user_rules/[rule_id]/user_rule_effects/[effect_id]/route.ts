// GET/PUT/DELETE /engine/workflows/<id>/user_rules/<rule id>/user_rule_effects/<effect id>: one effect.
import { effectMemberRoutes } from "@/lib/engine/http/engine-config-resources";

export const { GET, PUT, DELETE } = effectMemberRoutes("user");
