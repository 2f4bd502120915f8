// Any other /engine path: a JSON 404.
import { unknownPathRoutes } from "@/lib/http/missing-routes";

export const { GET, POST, PUT, PATCH, DELETE } = unknownPathRoutes();
