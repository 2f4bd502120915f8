// GET/PUT/DELETE /engine/workflows/<id>/user_rules/<rule id>: one user rule (DELETE takes its effects).
import { ruleMemberRoutes } from "@/lib/engine/http/engine-config-resources";

export const { GET, PUT, DELETE } = ruleMemberRoutes("user");
