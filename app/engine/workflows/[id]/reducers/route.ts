// GET/POST /engine/workflows/<id>/reducers: the workflow's reducers, one by one (the established engine's API).
import { keyedCollectionRoutes } from "@/lib/engine/http/engine-config-resources";

export const { GET, POST } = keyedCollectionRoutes("reducers");
