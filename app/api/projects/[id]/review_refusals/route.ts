// POST /api/projects/<id>/review_refusals: an admin refuses the project's pending beta or launch review
// (body {"review_refusals": {"review": "beta" | "launch", "reason": "..."}}); answered as the recorded admin action.
import { refuseReviewRoute } from "@/lib/handlers/review-refusal-route";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const POST = refuseReviewRoute;

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
