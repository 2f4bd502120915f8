import { Readable } from "node:stream";
import { env } from "@/lib/env";
import { jsonRoute } from "@/lib/http/api-route";
import { AppError, notFound } from "@/lib/errors";
import { normalizeContentType, verifySignedUrl } from "@/lib/storage/signed-urls";
import { isStorageKey, storage } from "@/lib/storage/storage";

// GET and PUT /uploads/<key>: the files in storage, outside the JSON-API (no Accept header, no bearer).
// Subject media (keys under subjects/) and record media (media/: avatars, attached images) are public;
// anything else (exports, manifests) needs a signed GET URL. A PUT
// always needs a signed URL, whose content type the body must have, within UPLOAD_MAX_BYTES.

const isPublic = (key: string) => key.startsWith("subjects/") || key.startsWith("media/");

function keyOf(params: Record<string, string>): string {
  const key = params.key ?? "";
  if (!isStorageKey(key)) throw notFound("No such file");
  return key;
}

const FILE_CSP = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";

/** Media a browser may show in place (with nosniff and the sandbox above); anything else downloads. */
export function shownInline(contentType: string): boolean {
  const type = contentType.split(";")[0].trim().toLowerCase();
  return /^(image\/(png|jpeg|gif|webp|svg\+xml|tiff)|audio\/[\w.+-]+|video\/[\w.+-]+|text\/plain)$/.test(type);
}

export const getFile = jsonRoute({ scope: "none" }, async (req, params) => {
  const key = keyOf(params);
  if (!isPublic(key)) await verifySignedUrl("GET", key, new URL(req.url));
  const object = await storage().getObjectStream(key);
  if (!object) throw notFound("No such file");
  const etag = `"${object.etag}"`;
  const headers = new Headers({
    "content-type": object.contentType,
    etag,
    "last-modified": object.modifiedAt.toUTCString(),
    "cache-control": isPublic(key) ? "public, max-age=86400" : "private, max-age=0",
    "x-content-type-options": "nosniff",
    // Nothing stored runs on our origin: an SVG or HTML opened directly gets no script, no plugin and no
    // access to our cookies (sandbox), whatever it contains.
    "content-security-policy": FILE_CSP,
  });
  if (!isPublic(key) || !shownInline(object.contentType))
    headers.set("content-disposition", `attachment; filename="${key.split("/").pop()}"`);
  const inm = req.headers.get("if-none-match");
  if (inm?.split(",").some((t) => t.trim().replace(/^W\//, "") === etag)) {
    object.stream.destroy();
    return new Response(null, { status: 304, headers });
  }
  headers.set("content-length", String(object.size));
  return new Response(Readable.toWeb(object.stream) as ReadableStream, { status: 200, headers });
});

export const putFile = jsonRoute({ scope: "none" }, async (req, params) => {
  const key = keyOf(params);
  const expected = await verifySignedUrl("PUT", key, new URL(req.url));
  const given = normalizeContentType(req.headers.get("content-type"));
  if (expected && given !== expected) throw new AppError("unsupported_media_type", `Content-Type must be ${expected}`);
  const max = env().UPLOAD_MAX_BYTES;
  if (Number(req.headers.get("content-length") ?? 0) > max)
    throw new AppError("too_large", `The file is larger than the limit of ${max} bytes`);
  if (!req.body) throw new AppError("invalid", "The request has no body");
  const { size, etag } = await storage().putObject(key, Readable.fromWeb(req.body as never), {
    contentType: expected || given || "application/octet-stream",
    maxBytes: max,
  });
  return new Response(null, { status: 200, headers: { etag: `"${etag}"`, "x-stored-bytes": String(size) } });
});
