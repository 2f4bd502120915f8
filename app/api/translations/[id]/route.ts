// GET/PUT /api/translations/<id>: one translation; its project's translators edit its strings.
import { memberRoutes } from "@/lib/http/resource-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";
import { translations } from "@/lib/resources/translations";

export const { GET, PUT } = memberRoutes(translations);

export const { POST, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "PUT"]);
