// Any other /api path: a JSON 404 (never Next's HTML page).
import { notFound } from "@/lib/http/api-error";
import { errorResponse, JSONAPI_TYPE } from "@/lib/http/respond";

const missing = async (req: Request) => errorResponse(notFound(`No route matches ${req.method} ${new URL(req.url).pathname}`), JSONAPI_TYPE);
export { missing as GET, missing as POST, missing as PUT, missing as DELETE, missing as PATCH };
