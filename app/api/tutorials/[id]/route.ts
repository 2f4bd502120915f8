// GET/PUT/DELETE /api/tutorials/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { tutorials } from "@/lib/resources/tutorials";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(tutorials);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
