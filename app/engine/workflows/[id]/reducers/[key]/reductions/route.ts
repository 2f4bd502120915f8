// GET/POST/PUT /engine/workflows/<id>/reducers/<key>/reductions: a subject's or user's reductions; store one
// (POST, or PUT as external reducers of the established engine send it; either starts the rules).
import { listReductions, postReduction } from "@/lib/engine/http/engine-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = listReductions;
export const POST = postReduction;
export const PUT = postReduction;

export const { PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST", "PUT"]);
