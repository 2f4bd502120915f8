// GET/POST /engine/workflows/<id>/subject_rules: the workflow's subject rules (a new one is evaluated last).
import { ruleCollectionRoutes } from "@/lib/engine/http/engine-config-resources";

export const { GET, POST } = ruleCollectionRoutes("subject");
