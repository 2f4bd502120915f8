// GET/PUT/DELETE /engine/workflows/<id>/subject_rules/<rule id>: one subject rule (DELETE takes its effects).
import { ruleMemberRoutes } from "@/lib/engine/http/engine-config-resources";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = ruleMemberRoutes("subject");

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
