// POST /api/subjects/retire {workflow_id, subject_id|subject_ids, retirement_reason}: retire (decision engine).
import { retirementRoute } from "@/lib/domain/retirement-routes";

export const POST = retirementRoute("retire", "body");
