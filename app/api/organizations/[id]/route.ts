// GET/PUT/DELETE /api/organizations/<id>: show, edit (If-Match; listed: admins), destroy (If-Match; with its roles, pages, project links, media).
import { memberRoutes } from "@/lib/http/resource-routes";
import { organizations } from "@/lib/resources/organizations";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const { GET, PUT, DELETE } = memberRoutes(organizations);

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
