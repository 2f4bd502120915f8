// POST /api/workflows/<id>/retired_subjects {subject_id|subject_ids, retirement_reason}: retire subjects.
import { retirementRoute } from "@/lib/domain/retirement-routes";

export const POST = retirementRoute("retire", "path");
