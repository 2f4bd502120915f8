/** A subject's first location as {mime, url}: `locations` is `[{mime: url}, ...]`. */
export function frameMediaOf(locations: unknown): { mime: string; url: string } {
  const first = Array.isArray(locations) ? (locations[0] as Record<string, string> | undefined) : undefined;
  const [mime, url] = Object.entries(first ?? {})[0] ?? ["", ""];
  return { mime: String(mime), url: String(url) };
}
