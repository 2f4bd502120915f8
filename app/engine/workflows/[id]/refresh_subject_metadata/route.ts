// POST /engine/workflows/<id>/refresh_subject_metadata: admins re-read the engine's cached subject metadata.
import { refreshSubjects } from "@/lib/engine/http/engine-routes";

export const POST = refreshSubjects;
