import crypto from "node:crypto";
import { keys } from "@/lib/auth/keys";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { storage } from "./storage";

// Expiring URLs for one storage object and one method, signed with HMAC-SHA256 under a key derived from
// AUTH_SECRET: the holder needs no bearer token. A PUT URL also names (and signs) the content type the
// body must have, in its `content_type` parameter.

async function signingKey(): Promise<Buffer> {
  return crypto
    .createHash("sha256")
    .update(`storage-url:${(await keys()).authSecret}`)
    .digest();
}

async function signature(method: string, key: string, contentType: string, expires: number): Promise<string> {
  return crypto
    .createHmac("sha256", await signingKey())
    .update(`${method}\n${key}\n${contentType}\n${expires}`)
    .digest("base64url");
}

export const normalizeContentType = (raw: string | null) => (raw ?? "").split(";")[0].trim().toLowerCase();

export async function signedUrl(
  method: "GET" | "PUT",
  key: string,
  opts: { contentType?: string; ttlSeconds?: number } = {},
): Promise<string> {
  const expires = Math.floor(Date.now() / 1000) + (opts.ttlSeconds ?? env().UPLOAD_URL_TTL);
  const contentType = normalizeContentType(opts.contentType ?? null);
  const sig = await signature(method, key, contentType, expires);
  const q = new URLSearchParams({ ...(contentType ? { content_type: contentType } : {}), expires: String(expires), signature: sig });
  return `${storage().publicUrl(key)}?${q}`;
}

/**
 * 403 unless the URL carries a valid, unexpired signature for this method and key; answers the content
 * type the URL was issued for ("" when none).
 */
export async function verifySignedUrl(method: "GET" | "PUT", key: string, url: URL): Promise<string> {
  const expires = Number(url.searchParams.get("expires"));
  const contentType = url.searchParams.get("content_type") ?? "";
  const given = Buffer.from(url.searchParams.get("signature") ?? "");
  if (!Number.isInteger(expires) || !given.length) throw new AppError("forbidden", "This URL needs a valid signature");
  const expected = Buffer.from(await signature(method, key, contentType, expires));
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw new AppError("forbidden", "Invalid signature");
  if (expires < Date.now() / 1000) throw new AppError("forbidden", "This URL has expired");
  return contentType;
}
