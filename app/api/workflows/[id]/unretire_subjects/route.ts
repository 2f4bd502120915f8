// POST /api/workflows/<id>/unretire_subjects {subject_id|subject_ids}: return subjects to the queue.
import { retirementRoute } from "@/lib/domain/retirement-routes";

export const POST = retirementRoute("unretire", "path");
