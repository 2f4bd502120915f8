// POST /api/workflows/<id>/retired_subjects {subject_id|subject_ids, retirement_reason}: retire subjects.
import { retirementRoute } from "@/lib/handlers/retirement-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const POST = retirementRoute("retire", "path");

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
