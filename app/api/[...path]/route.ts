// Any other /api path: a JSON 404 (never Next's HTML page); OPTIONS answers CORS preflights.
import { notFound } from "@/lib/errors";
import { corsPreflight, withCors } from "@/lib/http/cors";
import { errorResponse, JSONAPI_TYPE } from "@/lib/http/respond";
import { declareScope } from "@/lib/http/route-scope";

const missing = declareScope("none", (req: Request) =>
  withCors(req, async () => errorResponse(notFound(`No route matches ${req.method} ${new URL(req.url).pathname}`), JSONAPI_TYPE)),
);
export { missing as GET, missing as POST, missing as PUT, missing as DELETE, missing as PATCH, corsPreflight as OPTIONS };
