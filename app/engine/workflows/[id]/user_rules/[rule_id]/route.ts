// GET/PUT/DELETE /engine/workflows/<id>/user_rules/<rule id>: one user rule (DELETE takes its effects).
import { ruleMemberRoutes } from "@/lib/engine/http/engine-config-resources";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = ruleMemberRoutes("user");

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
