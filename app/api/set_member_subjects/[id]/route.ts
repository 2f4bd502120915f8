// GET/PUT/DELETE /api/set_member_subjects/<id>: one membership (PUT edits its priority).
import { memberRoutes } from "@/lib/http/resource-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";
import { setMemberSubjects } from "@/lib/resources/set-member-subjects";

export const { GET, PUT, DELETE } = memberRoutes(setMemberSubjects);

export const { POST, PATCH, OPTIONS } = methodNotAllowed(["GET", "PUT", "DELETE"]);
