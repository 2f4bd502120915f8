// A small JSONPath subset for `pluck_field`: `$`, `.key`, `['key']` / `["key"]`, `[n]` (negative counts from
// the end) and `[*]` / `.*` (every element or value). No filters, slices or recursive descent.

export type PathSegment = { kind: "key"; key: string } | { kind: "index"; index: number } | { kind: "wildcard" };

export class JsonPathError extends Error {}

/** Parses a path; throws JsonPathError with a readable message when it is not in the subset. */
export function parseJsonPath(path: string): PathSegment[] {
  if (!path.startsWith("$")) throw new JsonPathError(`JSONPath must start with '$'`);
  const segments: PathSegment[] = [];
  let i = 1;
  while (i < path.length) {
    const c = path[i];
    if (c === ".") {
      if (path[i + 1] === ".") throw new JsonPathError("recursive descent '..' is not supported");
      if (path[i + 1] === "*") {
        segments.push({ kind: "wildcard" });
        i += 2;
        continue;
      }
      const m = /^[A-Za-z0-9_\-#$@:]+/.exec(path.slice(i + 1));
      if (!m) throw new JsonPathError(`expected a key after '.' at position ${i}`);
      segments.push({ kind: "key", key: m[0] });
      i += 1 + m[0].length;
    } else if (c === "[") {
      const rest = path.slice(i);
      let m: RegExpExecArray | null;
      if ((m = /^\[\*\]/.exec(rest))) segments.push({ kind: "wildcard" });
      else if ((m = /^\[(-?\d+)\]/.exec(rest))) segments.push({ kind: "index", index: Number(m[1]) });
      else if ((m = /^\['((?:[^'\\]|\\.)*)'\]/.exec(rest)) || (m = /^\["((?:[^"\\]|\\.)*)"\]/.exec(rest)))
        segments.push({ kind: "key", key: m[1].replace(/\\(.)/g, "$1") });
      else throw new JsonPathError(`unsupported bracket expression at position ${i}`);
      i += m[0].length;
    } else {
      throw new JsonPathError(`unexpected '${c}' at position ${i}`);
    }
  }
  return segments;
}

/** Every value the path matches, in document order. Missing keys and out-of-range indexes match nothing. */
export function queryJsonPath(root: unknown, path: string | PathSegment[]): unknown[] {
  const segments = typeof path === "string" ? parseJsonPath(path) : path;
  let current: unknown[] = [root];
  for (const seg of segments) {
    const next: unknown[] = [];
    for (const node of current) {
      if (seg.kind === "key") {
        if (node && typeof node === "object" && !Array.isArray(node) && Object.hasOwn(node, seg.key))
          next.push((node as Record<string, unknown>)[seg.key]);
      } else if (seg.kind === "index") {
        if (Array.isArray(node)) {
          const idx = seg.index < 0 ? node.length + seg.index : seg.index;
          if (idx >= 0 && idx < node.length) next.push(node[idx]);
        }
      } else if (Array.isArray(node)) next.push(...node);
      else if (node && typeof node === "object") next.push(...Object.values(node));
    }
    current = next;
  }
  return current;
}
