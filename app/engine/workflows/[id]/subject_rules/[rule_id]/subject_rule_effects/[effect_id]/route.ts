// GET/PUT/DELETE /engine/workflows/<id>/subject_rules/<rule id>/subject_rule_effects/<effect id>: one effect.
import { effectMemberRoutes } from "@/lib/engine/http/engine-config-resources";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = effectMemberRoutes("subject");

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
