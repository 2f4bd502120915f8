// GET/PUT/DELETE /engine/workflows/<id>/extractors/<id or key>: one extractor.
import { keyedMemberRoutes } from "@/lib/engine/http/engine-config-resources";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = keyedMemberRoutes("extractors");

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
