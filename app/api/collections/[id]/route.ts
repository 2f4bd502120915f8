// GET/PUT/DELETE /api/collections/<id>.
import { memberRoutes } from "@/lib/http/resource-routes";
import { collections } from "@/lib/resources/collections";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(collections);

// The methods this path does not take: a JSON 405 with Allow (never an empty answer).
export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
