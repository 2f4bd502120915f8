// Browser calls to our own JSON-API; the Auth.js session cookie identifies the user.
export const API_ACCEPT = "application/vnd.api+json; version=1";

export async function apiGet<T>(path: string): Promise<T> {
  const res = await fetch(`/api${path}`, { headers: { Accept: API_ACCEPT }, credentials: "same-origin" });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error(body?.errors?.[0]?.message ?? `HTTP ${res.status}`);
  return body as T;
}

export async function apiPost<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`/api${path}`, {
    method: "POST",
    headers: { Accept: API_ACCEPT, "Content-Type": "application/json" },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
  const parsed = await res.json().catch(() => null);
  if (!res.ok) throw new Error(parsed?.errors?.[0]?.message ?? `HTTP ${res.status}`);
  return parsed as T;
}

/** PUT with the record's current ETag as If-Match (the API refuses blind overwrites): GET it, then PUT. */
export async function apiPutFresh<T>(path: string, body: unknown): Promise<T> {
  const current = await fetch(`/api${path}`, { headers: { Accept: API_ACCEPT }, credentials: "same-origin", cache: "no-store" });
  if (!current.ok) throw new Error(`HTTP ${current.status}`);
  const res = await fetch(`/api${path}`, {
    method: "PUT",
    headers: { Accept: API_ACCEPT, "Content-Type": "application/json", "If-Match": current.headers.get("ETag") ?? "*" },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
  const parsed = await res.json().catch(() => null);
  if (!res.ok) throw new Error(parsed?.errors?.[0]?.message ?? `HTTP ${res.status}`);
  return parsed as T;
}

/** DELETE with the record's current ETag as If-Match (GET it, then DELETE); a 204 resolves. */
export async function apiDeleteFresh(path: string): Promise<void> {
  const current = await fetch(`/api${path}`, { headers: { Accept: API_ACCEPT }, credentials: "same-origin", cache: "no-store" });
  if (!current.ok) throw new Error(`HTTP ${current.status}`);
  const res = await fetch(`/api${path}`, { method: "DELETE", headers: { Accept: API_ACCEPT, "If-Match": current.headers.get("ETag") ?? "*" }, credentials: "same-origin" });
  if (!res.ok) {
    const parsed = await res.json().catch(() => null);
    throw new Error(parsed?.errors?.[0]?.message ?? `HTTP ${res.status}`);
  }
}

/** Uploads a file to a signed URL the API answered with (subjects, media): the body with its type, nothing else. */
export async function putSignedFile(url: string, file: Blob): Promise<void> {
  const put = await fetch(url, { method: "PUT", headers: { "Content-Type": file.type }, body: file });
  if (!put.ok) throw new Error(`the file could not be uploaded (HTTP ${put.status})`);
}
