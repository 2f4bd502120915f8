// POST /engine/workflows/<id>/dry_run: a configuration tried on recent (or pasted) classifications, writing nothing.
import { dryRunRoute } from "@/lib/engine/http/dry-run-route";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const POST = dryRunRoute;

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
