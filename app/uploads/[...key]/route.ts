// GET /uploads/<key>: a stored file (subject media public, others by signed URL); PUT with a signed URL uploads it.
import { getFile, putFile } from "@/lib/storage/file-routes";

export const GET = getFile;
export const PUT = putFile;
