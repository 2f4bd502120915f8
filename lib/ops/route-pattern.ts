import fs from "node:fs";
import path from "node:path";

// The route pattern of a request path (`/api/projects/17` → `/api/projects/[id]`), for the request log and
// the HTTP metrics' `route` label: labels must be the app's routes, never raw paths (a label per project id
// would grow without bound). The patterns are the app's routes and pages as the production build lists
// them (.next/app-path-routes-manifest.json), or, without a build (dev), as app/ holds them. Precedence is
// Next's: a static segment before a dynamic one before a catch-all. Anything else is `/_next` (Next's own
// files) or `unmatched`.

interface Node {
  template?: string;
  fixed: Map<string, Node>;
  dynamic?: Node;
  catchAll?: string;
  optionalCatchAll?: string;
}

const node = (): Node => ({ fixed: new Map() });

/** A matcher over route templates such as `/api/projects/[id]` and `/uploads/[...key]`. */
export function routeMatcher(templates: Iterable<string>): (pathname: string) => string {
  const root = node();
  for (const template of templates) {
    let at = root;
    const segments = template.split("/").filter(Boolean);
    let done = false;
    for (const s of segments) {
      if (/^\[\[\.\.\.\w+\]\]$/.test(s)) {
        at.optionalCatchAll = template;
        done = true;
        break;
      }
      if (/^\[\.\.\.\w+\]$/.test(s)) {
        at.catchAll = template;
        done = true;
        break;
      }
      if (/^\[\w+\]$/.test(s)) at = at.dynamic ??= node();
      else {
        let next = at.fixed.get(s);
        if (!next) at.fixed.set(s, (next = node()));
        at = next;
      }
    }
    if (!done) at.template = template;
  }
  const match = (at: Node, segments: string[], i: number): string | undefined => {
    if (i === segments.length) return at.template ?? at.optionalCatchAll;
    const fixed = at.fixed.get(segments[i]);
    const found = (fixed && match(fixed, segments, i + 1)) ?? (at.dynamic && match(at.dynamic, segments, i + 1));
    return found ?? at.catchAll ?? at.optionalCatchAll;
  };
  return (pathname) => {
    if (pathname === "/_next" || pathname.startsWith("/_next/")) return "/_next";
    const segments = pathname.split("/").filter(Boolean);
    // A path too deep for any route is not worth walking.
    if (segments.length > 32) return "unmatched";
    return match(root, segments, 0) ?? "unmatched";
  };
}

/** The app's route templates: the production build's list, else app/'s route and page files. */
export function appRouteTemplates(root = process.cwd()): string[] {
  const manifest = path.join(root, ".next/app-path-routes-manifest.json");
  if (fs.existsSync(manifest)) return Object.values(JSON.parse(fs.readFileSync(manifest, "utf8")) as Record<string, string>);
  const out: string[] = [];
  const walk = (dir: string, segments: string[]) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) {
        // Route groups `(name)` and private folders `_name` are not path segments.
        if (e.name.startsWith("_")) continue;
        walk(path.join(dir, e.name), /^\(.*\)$/.test(e.name) ? segments : [...segments, e.name]);
      } else if (/^(route|page)\.(ts|tsx|js)$/.test(e.name)) out.push(`/${segments.join("/")}`);
    }
  };
  walk(path.join(root, "app"), []);
  return out;
}

let matcher: ((pathname: string) => string) | undefined;

/** The route pattern of a request target (path and query). */
export function routePattern(url: string): string {
  matcher ??= routeMatcher(appRouteTemplates());
  const q = url.indexOf("?");
  return matcher(q === -1 ? url : url.slice(0, q));
}
