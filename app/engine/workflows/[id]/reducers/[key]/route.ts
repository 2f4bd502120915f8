// GET/PUT/DELETE /engine/workflows/<id>/reducers/<id or key>: one reducer.
import { keyedMemberRoutes } from "@/lib/engine/http/engine-config-resources";

export const { GET, PUT, DELETE } = keyedMemberRoutes("reducers");
