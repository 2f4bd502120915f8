// POST /engine/workflows/<id>/refresh_subject_metadata: admins re-read the engine's cached subject metadata.
import { refreshSubjects } from "@/lib/engine/http/engine-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const POST = refreshSubjects;

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["POST"]);
