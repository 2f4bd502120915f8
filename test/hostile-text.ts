// Texts shaped to make a Markdown parser (or a regular expression) backtrack, rescan or nest, each exactly
// `length` characters, beside a benign text of the same length to compare with. Shared by the renderer's
// own timing test (lib/markdown/render-timing.test.ts) and the production server's
// (e2e/api/hostile-markdown.spec.ts). Each shape is one that made some Markdown implementation quadratic,
// exponential or recursive past the stack.

const repeat = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

/** Builds up to `length` characters from `line(i)` for i = 0, 1, ... */
function lines(line: (i: number) => string, length: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < length; i++) {
    const l = line(i);
    parts.push(l);
    size += l.length;
  }
  return parts.join("").slice(0, length);
}

export const HOSTILE_SHAPES: Record<string, (length: number) => string> = {
  "[": (n) => repeat("[", n),
  "![": (n) => repeat("![", n),
  "[]( ": (n) => repeat("[](", n),
  "[a](": (n) => repeat("[a](", n),
  "*": (n) => repeat("*", n),
  _: (n) => repeat("_", n),
  "*a ": (n) => repeat("*a ", n),
  "_a ": (n) => repeat("_a ", n),
  "a**b": (n) => repeat("a**b", n),
  "*_": (n) => repeat("*_", n),
  "`": (n) => repeat("`", n),
  "growing backtick runs": (n) => lines((i) => `${"`".repeat(i + 1)}a`, n),
  "<": (n) => repeat("<", n),
  "<a": (n) => repeat("<a", n),
  "<http://": (n) => repeat("<http://", n),
  "<!--": (n) => repeat("<!--", n),
  ">": (n) => repeat(">", n),
  "> ": (n) => repeat("> ", n),
  "long link destination": (n) => `[a](${repeat("a", n - 4)}`,
  "long link title": (n) => `[a](b "${repeat("a", n - 7)}`,
  "[a]: b reference definitions": (n) => repeat("[a]: b\n", n),
  "[a][b] references": (n) => repeat("[a][b]", n),
  "deep list nesting": (n) => lines((i) => `${"  ".repeat(i)}- a\n`, n),
  "- ": (n) => repeat("- ", n),
  "1. ": (n) => repeat("1. ", n),
  "&amp;": (n) => repeat("&amp;", n),
  "&": (n) => repeat("&", n),
  '"': (n) => repeat('"', n),
  "&a": (n) => repeat("&a", n),
  "&#": (n) => repeat("&#", n),
  "setext headings": (n) => repeat("a\n=\n", n),
  "# a headings": (n) => repeat("# a\n", n),
  "#": (n) => repeat("#", n),
  "```": (n) => repeat("```\n", n),
  "\\": (n) => repeat("\\", n),
  "]": (n) => repeat("]", n),
  "[a](b) [": (n) => repeat("[a](b) [", n),
  "spaces then text": (n) => `${repeat(" ", n - 1)}a`,
  "\\n": (n) => repeat("\n", n),
  "- - - rules": (n) => repeat("- - -\n", n),
  "every syntax character": (n) => repeat("[*_`<>!&\\](#", n),
};

/** Ordinary Markdown as projects write it (headings, emphasis, links, lists), `length` characters. */
export function benignText(length: number): string {
  return repeat(
    "## Owls\n\nOwls are **birds** of the order *Strigiformes*; see [the guide](https://example.org/owls) and `code`.\n\n- one\n- two\n\n",
    length,
  );
}
