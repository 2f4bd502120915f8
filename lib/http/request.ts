import { AppError, unprocessable } from "@/lib/errors";
import { MAX_JSON_DEPTH, parseBoundedJson } from "@/lib/text/json-depth";

/** The largest request body the API reads (JSON and form bodies; uploads and imports have their own limits). */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

const tooLarge = (max: number) => new AppError("too_large", `Request body is too large (the limit is ${max} bytes)`);

/**
 * The request body's bytes, refused with a 413 as early as possible: before reading when Content-Length
 * is over `max`, else as soon as the streamed body passes it (the rest is never read or buffered).
 */
export async function readBodyBytes(req: Request, max = MAX_BODY_BYTES): Promise<Uint8Array> {
  const length = Number(req.headers.get("content-length") ?? 0);
  if (length > max) throw tooLarge(max);
  if (!req.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw tooLarge(max);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The request body as UTF-8 text, within `max` bytes (413 beyond). */
export async function readBodyText(req: Request, max = MAX_BODY_BYTES): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(req, max));
}

/** Parses JSON text from a request: malformed, or nested deeper than MAX_JSON_DEPTH levels → 400. */
export function parseJsonText(text: string): unknown {
  const parsed = parseBoundedJson(text);
  if (parsed.ok) return parsed.value;
  if (parsed.reason === "too_deep")
    throw new AppError("bad_request", `JSON nested too deeply in request body (more than ${MAX_JSON_DEPTH} levels)`);
  throw new AppError("bad_request", "Malformed JSON in request body");
}

/** Parses a JSON body: malformed → 400, missing → 422, larger than 5 MiB → 413. Drops clients' `http_cache`. */
export async function readJsonBody(req: Request): Promise<Record<string, unknown>> {
  const text = await readBodyText(req);
  if (!text.trim()) throw unprocessable("A JSON request body is required");
  const parsed = parseJsonText(text);
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw unprocessable("The request body must be a JSON object");
  const body = parsed as Record<string, unknown>;
  delete body.http_cache;
  return body;
}

/** Parses a form-encoded or JSON body into a flat record (for /oauth/token and similar). */
export async function readFormOrJson(req: Request): Promise<Record<string, unknown>> {
  const type = req.headers.get("content-type") ?? "";
  if (type.includes("application/x-www-form-urlencoded")) {
    return Object.fromEntries(new URLSearchParams(await readBodyText(req)));
  }
  if (type.includes("multipart/form-data")) {
    const bytes = await readBodyBytes(req);
    let form: FormData;
    try {
      form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": type } }).formData();
    } catch {
      throw new AppError("bad_request", "Malformed multipart form body");
    }
    return Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === "string" ? v : ""]));
  }
  return readJsonBody(req);
}
