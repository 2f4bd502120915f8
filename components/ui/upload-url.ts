// Our uploads as this page's origin serves them. The API names stored files by absolute URLs under
// PUBLIC_URL (`<PUBLIC_URL>/uploads/<key>`: stored in subjects' locations, answered as media `src` and as
// signed PUT URLs), which API clients and mail need. A page opened at another name of the same server
// (127.0.0.1 where PUBLIC_URL says localhost, a LAN address, a proxy's name) must not use them as they
// are: the browser refuses a PUT to another origin, and the other name may not reach the server at all.
// So pages fetch and show them by path (`/uploads/<key>?…`), which reaches whichever name they came by.
// Plain functions: server pages call them with publicBaseUrl(), client components through
// useUploadUrl (./upload-url-context.tsx).
import { trimTrailingSlashes } from "@/lib/text/trim-slashes";

/** `url` as a path on this origin when it is one of our uploads under `publicBase`; any other URL unchanged. */
export function localUploadUrl(url: string, publicBase: string): string {
  let parsed: URL;
  let base: URL;
  try {
    parsed = new URL(url);
    base = new URL(publicBase);
  } catch {
    return url; // already a path, or not a URL at all: nothing to rewrite
  }
  const prefix = `${trimTrailingSlashes(base.pathname)}/uploads/`;
  if (parsed.origin !== base.origin || !parsed.pathname.startsWith(prefix)) return url;
  return `${parsed.pathname}${parsed.search}${parsed.hash}`;
}

/** As localUploadUrl, passing null through (a record with no file). */
export function localUploadUrlOrNull(url: string | null, publicBase: string): string | null {
  return url === null ? null : localUploadUrl(url, publicBase);
}
