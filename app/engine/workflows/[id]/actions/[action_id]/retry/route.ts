// POST /engine/workflows/<id>/actions/<action id>/retry: a failed action performed again.
import { retryAction } from "@/lib/engine/http/engine-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const POST = retryAction;

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
