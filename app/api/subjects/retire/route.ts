// POST /api/subjects/retire {workflow_id, subject_id|subject_ids, retirement_reason}: retire (decision engine).
import { retirementRoute } from "@/lib/handlers/retirement-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const POST = retirementRoute("retire", "body");

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
