/** A project's slug: its owner's login and its display name as a URL path ("login/display-name"). */
export function slugFor(login: string, displayName: string): string {
  const name = displayName
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^\w\s-]/g, "")
    .trim()
    .replace(/[\s_]+/g, "-");
  return `${login.toLowerCase()}/${name || "project"}`;
}
