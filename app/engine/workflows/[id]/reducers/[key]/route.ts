// GET/PUT/DELETE /engine/workflows/<id>/reducers/<id or key>: one reducer.
import { keyedMemberRoutes } from "@/lib/engine/http/engine-config-resources";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = keyedMemberRoutes("reducers");

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
