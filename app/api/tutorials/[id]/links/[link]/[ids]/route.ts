// DELETE /api/tutorials/<id>/links/workflows/<ids>: unlink workflows.
import { linkRoutes } from "@/lib/http/resource-routes";
import { tutorials } from "@/lib/resources/tutorials";

export const { DELETE } = linkRoutes(tutorials);
