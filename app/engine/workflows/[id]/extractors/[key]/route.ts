// GET/PUT/DELETE /engine/workflows/<id>/extractors/<id or key>: one extractor.
import { keyedMemberRoutes } from "@/lib/engine/http/engine-config-resources";

export const { GET, PUT, DELETE } = keyedMemberRoutes("extractors");
