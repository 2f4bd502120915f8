// GET/POST /engine/workflows/<id>/data_requests: the workflow's extracts or reductions as a CSV, built in the background.
import { dataRequestCollectionRoutes } from "@/lib/engine/http/data-requests";

export const { GET, POST } = dataRequestCollectionRoutes;
