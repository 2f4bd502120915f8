import fs from "node:fs";
import path from "node:path";
import { check } from "recheck";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Every regular expression the server or the pages run (lib/, app/, components/, proxy.ts,
// instrumentation.ts; tests aside) must take linear time, whatever text it is given: each one is checked with
// recheck, a ReDoS checker (automata theory where it applies, fuzzing otherwise), and one it finds
// polynomial or exponential, or cannot decide, fails this test with the attack string it found. Collected:
// regular expression literals, `RegExp(...)` built from a string or template (a template's parts must be
// constants named in CONSTANT_CASE, checked as "x"; anything else cannot be checked and fails), and
// strings given to match/matchAll/search (which make them regular expressions).
// recheck's backend is its default: the binary its npm package ships for this platform (no JVM, no network);
// RECHECK_BACKEND=pure runs its JavaScript build instead (about ten times slower).

const ROOTS = ["lib", "app", "components", "proxy.ts", "instrumentation.ts"];
const SKIP = /(^|\/)(lib\/generated|node_modules)(\/|$)|\.test\.tsx?$|\.d\.ts$/;

interface Found {
  source: string;
  flags: string;
  at: string;
}

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    if (SKIP.test(p) || !fs.existsSync(p)) return;
    if (fs.statSync(p).isDirectory()) for (const f of fs.readdirSync(p)) walk(path.join(p, f));
    else if (/\.tsx?$/.test(p)) out.push(p);
  };
  for (const r of ROOTS) walk(r);
  return out;
}

const stringValue = (n: ts.Node | undefined) =>
  n && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) ? n.text : undefined;

/** The regular expressions in one file's text, and the `RegExp(...)` constructions that cannot be checked. */
function regexesIn(file: string, text: string): { found: Found[]; unchecked: string[] } {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Found[] = [];
  const unchecked: string[] = [];
  const at = (n: ts.Node) => `${file}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
  const visit = (n: ts.Node) => {
    if (ts.isRegularExpressionLiteral(n)) {
      const end = n.text.lastIndexOf("/");
      found.push({ source: n.text.slice(1, end), flags: n.text.slice(end + 1), at: at(n) });
    } else if ((ts.isNewExpression(n) || ts.isCallExpression(n)) && ts.isIdentifier(n.expression) && n.expression.text === "RegExp") {
      const [pattern, flagsArg] = n.arguments ?? [];
      const flags = flagsArg === undefined ? "" : stringValue(flagsArg);
      let source = stringValue(pattern);
      if (
        pattern &&
        ts.isTemplateExpression(pattern) &&
        pattern.templateSpans.every((s) => /^[A-Z][A-Z0-9_]*$/.test(s.expression.getText(sf)))
      )
        source = pattern.head.text + pattern.templateSpans.map((s) => `x${s.literal.text}`).join("");
      if (source === undefined || flags === undefined) unchecked.push(`${at(n)} ${n.getText(sf).slice(0, 120)}`);
      else found.push({ source, flags, at: at(n) });
    } else if (
      ts.isCallExpression(n) &&
      ts.isPropertyAccessExpression(n.expression) &&
      ["match", "matchAll", "search"].includes(n.expression.name.text) &&
      stringValue(n.arguments[0]) !== undefined
    ) {
      found.push({ source: stringValue(n.arguments[0]) as string, flags: "", at: at(n) });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return { found, unchecked };
}

/** What recheck says of a pattern that is not linear (or that it could not decide); null for a linear one. */
async function superLinear(source: string, flags: string): Promise<string | null> {
  const d = await check(source, flags, { timeout: 20_000 });
  if (d.status === "safe") return null;
  if (d.status === "vulnerable") return `${d.complexity.summary}, e.g. ${d.attack.pattern}`;
  return `not decided (${d.status}: ${d.error.kind})`;
}

async function flagged(found: Found[]): Promise<string[]> {
  const byPattern = new Map<string, Found[]>();
  for (const f of found) byPattern.set(`/${f.source}/${f.flags}`, [...(byPattern.get(`/${f.source}/${f.flags}`) ?? []), f]);
  const out: string[] = [];
  for (const [pattern, where] of byPattern) {
    const why = await superLinear(where[0].source, where[0].flags);
    if (why) out.push(`${pattern} (${where.map((w) => w.at).join(", ")}): ${why}`);
  }
  return out;
}

describe("regular expressions on user input", () => {
  it("every one in the source tree is linear", { timeout: 120_000 }, async () => {
    const all = sourceFiles().map((f) => regexesIn(f, fs.readFileSync(f, "utf8")));
    const found = all.flatMap((r) => r.found);
    expect(found.length).toBeGreaterThan(100); // the collector sees the tree (139 when this was written)
    expect(all.flatMap((r) => r.unchecked)).toEqual([]);
    expect(await flagged(found)).toEqual([]);
  });

  it("fails on a super-linear one, wherever it is written", { timeout: 60_000 }, async () => {
    const planted = [
      "const nested = /^(a+)+$/;",
      "const trailing = s.replace(/\\/+$/, '');",
      // The hand-written Markdown renderer's inline pattern that this test replaced (quadratic on `[`).
      "const inline = /(`[^`]+`)|!\\[([^\\]]*)\\]\\(([^)\\s]+)\\)|\\[([^\\]]+)\\]\\(([^)\\s]+)\\)|\\*\\*([^*]+)\\*\\*|\\*([^*]+)\\*/g;",
      "const built = new RegExp('(\\\\d+\\\\.?\\\\d*)+x', 'i');",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text with a template, as a file would have it
      "const fromTemplate = new RegExp(`^(${PREFIX}|x\\\\w*)*$`);",
      "const searched = text.search('(a|a)*b');",
      "const linear = /^[a-z]+$/;",
    ].join("\n");
    const { found } = regexesIn("planted.ts", planted);
    expect(found.map((f) => f.at)).toEqual([1, 2, 3, 4, 5, 6, 7].map((l) => `planted.ts:${l}`));
    const bad = await flagged(found);
    expect(bad.map((b) => b.slice(0, b.indexOf(" (planted")))).toEqual([
      "/^(a+)+$/",
      "/\\/+$/",
      found[2] && `/${found[2].source}/g`,
      "/(\\d+\\.?\\d*)+x/i",
      "/^(x|x\\w*)*$/",
      "/(a|a)*b/",
    ]);
    // A RegExp built from a value no reader can check is refused as such.
    expect(regexesIn("planted.ts", "const r = new RegExp(userInput);").unchecked).toEqual(["planted.ts:1 new RegExp(userInput)"]);
  });
});
