// GET/POST /engine/workflows/<id>/reducers/<key>/reductions: a subject's or user's reductions; store one (starts rules).
import { listReductions, postReduction } from "@/lib/engine/http/engine-routes";

export const GET = listReductions;
export const POST = postReduction;
