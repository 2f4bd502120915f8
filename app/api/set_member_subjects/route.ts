// GET/POST /api/set_member_subjects: subjects' memberships of subject sets (lib/resources/set-member-subjects.ts).
import { collectionRoutes } from "@/lib/http/resource-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";
import { setMemberSubjects } from "@/lib/resources/set-member-subjects";

export const { GET, POST } = collectionRoutes(setMemberSubjects);

export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "POST"]);
