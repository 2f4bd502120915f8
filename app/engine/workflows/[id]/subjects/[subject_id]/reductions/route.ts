// GET /engine/workflows/<id>/subjects/<subject id>/reductions: every reducer's reductions of one subject.
import { listSubjectReductions } from "@/lib/engine/http/engine-routes";

export const GET = listSubjectReductions;
