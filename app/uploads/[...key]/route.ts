// GET /uploads/<key>: a stored file (subject media public, others by signed URL); PUT with a signed URL uploads it.
import { getFile, putFile } from "@/lib/handlers/file-routes";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = getFile;
export const PUT = putFile;

export const { POST, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET", "PUT"]);
