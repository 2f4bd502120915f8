// DELETE /api/organizations/<id>/links/projects/<ids>: unlink comma-separated project ids.
import { linkRoutes } from "@/lib/http/resource-routes";
import { organizations } from "@/lib/resources/organizations";

export const { DELETE } = linkRoutes(organizations);
