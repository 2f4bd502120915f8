// GET/POST /engine/workflows/<id>/subject_rules/<rule id>/subject_rule_effects: a subject rule's effects, in order.
import { effectCollectionRoutes } from "@/lib/engine/http/engine-config-resources";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, POST } = effectCollectionRoutes("subject");

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
