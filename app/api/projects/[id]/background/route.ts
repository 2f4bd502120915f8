// GET/POST/PUT/DELETE /api/projects/<id>/background: the record's background (lib/resources/media.ts).
import { mediaRoutes } from "@/lib/resources/media";
import { projects } from "@/lib/resources/projects";

export const { GET, POST, PUT, DELETE } = mediaRoutes(projects, "background");
