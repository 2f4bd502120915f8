// The one way our pages talk to the server: the JSON-API (/api), the decision engine (/engine), the
// counts (/counts) and the account routes (/users: a password change), with the Auth.js session cookie naming the user. Every component goes through here, so
// headers, credentials and error messages are the same everywhere.
export const API_ACCEPT = "application/vnd.api+json; version=1";

const BASES = {
  api: { prefix: "/api", accept: API_ACCEPT },
  engine: { prefix: "/engine", accept: "application/json" },
  counts: { prefix: "/counts", accept: "application/json" },
  account: { prefix: "", accept: "application/json" },
} as const;
export type Base = keyof typeof BASES;

/** A refused request: the server's own message (its `errors[0].message`, or an OAuth-style `error`) and status. */
export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface RequestOptions {
  method?: string;
  /** A body sent as JSON. */
  json?: unknown;
  /** Any other body, with its type. */
  body?: BodyInit;
  contentType?: string;
  headers?: Record<string, string>;
  /** "no-store" where the answer changes under the page (the engine's lists and states are always read so). */
  cache?: RequestCache;
  /** Sent even when the page is going away (a cleanup on leaving). */
  keepalive?: boolean;
}

/** The answer as it came, for callers that decide by status (the pending classifications queue). Throws only when the network fails. */
export async function send(
  base: Base,
  path: string,
  opts: RequestOptions = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const { prefix, accept } = BASES[base];
  const headers: Record<string, string> = { Accept: accept, ...opts.headers };
  const contentType = opts.json !== undefined ? "application/json" : opts.contentType;
  if (contentType) headers["Content-Type"] = contentType;
  const res = await fetch(`${prefix}${path}`, {
    method: opts.method ?? "GET",
    headers,
    credentials: "same-origin",
    cache: opts.cache ?? (base === "engine" ? "no-store" : undefined),
    body: opts.json !== undefined ? JSON.stringify(opts.json) : opts.body,
    keepalive: opts.keepalive,
  });
  const body = res.status === 204 ? null : await res.json().catch(() => null);
  return { status: res.status, headers: res.headers, body };
}

/** The message of an error answer: JSON:API's `errors[0].message`, or the engine's `error`. */
function errorMessage(body: unknown): string | undefined {
  const b = body as { errors?: { message?: string }[]; error?: string } | null;
  return b?.errors?.[0]?.message ?? b?.error;
}

function refused(status: number, body: unknown): ApiRequestError {
  return new ApiRequestError(errorMessage(body) ?? `HTTP ${status}`, status);
}

/** The answer's body; a refusal throws ApiRequestError with the server's message. */
export async function request<T>(base: Base, path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await send(base, path, opts);
  if (res.status < 200 || res.status >= 300) throw refused(res.status, res.body);
  return res.body as T;
}

/** As request, with a 404 answered as null (a record that may not exist yet: an engine configuration, an export). */
export async function requestOrNull<T>(base: Base, path: string, opts: RequestOptions = {}): Promise<T | null> {
  const res = await send(base, path, opts);
  if (res.status === 404) return null;
  if (res.status < 200 || res.status >= 300) throw refused(res.status, res.body);
  return res.body as T;
}

export const apiGet = <T>(path: string) => request<T>("api", path);
export const apiPost = <T>(path: string, body: unknown) => request<T>("api", path, { method: "POST", json: body });
export const apiDelete = (path: string) => request<null>("api", path, { method: "DELETE" });
export const engineGet = <T>(path: string) => request<T>("engine", path);
export const enginePost = <T>(path: string, body?: unknown) => request<T>("engine", path, { method: "POST", json: body });
export const countsGet = <T>(path: string) => request<T>("counts", path);

/** The record's current ETag (the API refuses blind overwrites: PUT and DELETE carry it as If-Match). */
async function currentEtag(path: string): Promise<string> {
  const current = await send("api", path, { cache: "no-store" });
  if (current.status !== 200) throw refused(current.status, current.body);
  return current.headers.get("ETag") ?? "*";
}

/** PUT with the record's current ETag as If-Match: GET it, then PUT. */
export async function apiPutFresh<T>(path: string, body: unknown): Promise<T> {
  return request<T>("api", path, { method: "PUT", json: body, headers: { "If-Match": await currentEtag(path) } });
}

/** DELETE with the record's current ETag as If-Match (GET it, then DELETE); a 204 resolves. */
export async function apiDeleteFresh(path: string): Promise<void> {
  await request<null>("api", path, { method: "DELETE", headers: { "If-Match": await currentEtag(path) } });
}

/**
 * Uploads a file to a signed URL the API answered with (subjects, media): the body with its type, nothing
 * else. Pages pass the URL through useUploadUrl first (a path on their own origin, ./upload-url.ts).
 */
export async function putSignedFile(url: string, file: Blob, name = "the file"): Promise<void> {
  let put: Response;
  try {
    put = await fetch(url, { method: "PUT", headers: { "Content-Type": file.type }, body: file });
  } catch (err) {
    throw new Error(`${name} could not be uploaded (${(err as Error).message})`);
  }
  if (!put.ok) throw new Error(`${name} could not be uploaded (HTTP ${put.status})`);
}

/** A text subject's file (served by us or hosted elsewhere, as its location says). */
export async function fetchSubjectFileText(url: string): Promise<string> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`the text could not be loaded (${res.status})`);
  return res.text();
}
