// GET/POST /engine/workflows/<id>/subject_rules/<rule id>/subject_rule_effects: a subject rule's effects, in order.
import { effectCollectionRoutes } from "@/lib/engine/http/engine-config-resources";

export const { GET, POST } = effectCollectionRoutes("subject");
