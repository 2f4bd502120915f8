// GET/PUT/DELETE /engine/workflows/<id>/subject_rules/<rule id>: one subject rule (DELETE takes its effects).
import { ruleMemberRoutes } from "@/lib/engine/http/engine-config-resources";

export const { GET, PUT, DELETE } = ruleMemberRoutes("subject");
