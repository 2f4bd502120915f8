// GET/POST /engine/workflows/<id>/user_rules/<rule id>/user_rule_effects: a user rule's effects, in order.
import { effectCollectionRoutes } from "@/lib/engine/http/engine-config-resources";

export const { GET, POST } = effectCollectionRoutes("user");
