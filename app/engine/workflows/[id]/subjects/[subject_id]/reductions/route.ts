// GET /engine/workflows/<id>/subjects/<subject id>/reductions: every reducer's reductions of one subject.
import { listSubjectReductions } from "@/lib/engine/http/engine-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = listSubjectReductions;

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
