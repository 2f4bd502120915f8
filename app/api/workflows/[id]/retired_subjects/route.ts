// POST /api/workflows/<id>/retired_subjects {subject_id|subject_ids, retirement_reason}: retire subjects.
import { retirementRoute } from "@/lib/handlers/retirement-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const POST = retirementRoute("retire", "path");

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
