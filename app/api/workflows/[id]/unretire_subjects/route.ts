// POST /api/workflows/<id>/unretire_subjects {subject_id|subject_ids}: return subjects to the queue.
import { retirementRoute } from "@/lib/handlers/retirement-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const POST = retirementRoute("unretire", "path");

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
