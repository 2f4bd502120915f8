// Any other /engine path: a JSON 404.
import { unknownPathRoutes } from "@/lib/http/missing-routes";
import { corsPreflight } from "@/lib/http/cors";

export const { GET, POST, PUT, PATCH, DELETE } = unknownPathRoutes();

// CORS preflights (lib/http/cors.ts).
export const OPTIONS = corsPreflight;
