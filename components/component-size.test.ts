// Components a person can hold in their head: no React component function (a function whose name starts
// with a capital letter, in a .tsx file of components/ or app/) is longer than MAX_LINES lines. A longer one
// is split along what it shows (docs/architecture.md, "The UI's patterns"). `COMPONENT_SIZES=1 npx vitest
// run components/component-size.test.ts` prints the longest.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const MAX_LINES = 200;

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sources(rel);
    return e.name.endsWith(".tsx") && !/\.test\.|\.spec\./.test(e.name) ? [rel] : [];
  });
}

interface Sized {
  name: string;
  file: string;
  lines: number;
}

/** Every function of a .tsx source named with a capital (declared, or a const holding an arrow or function expression), with its lines. */
function componentSizes(file: string, text: string): Sized[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: Sized[] = [];
  const lines = (node: ts.Node) =>
    source.getLineAndCharacterOfPosition(node.getEnd()).line - source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node) => {
    let name: string | undefined;
    let fn: ts.Node | undefined;
    if (ts.isFunctionDeclaration(node) && node.body) {
      name = node.name?.text ?? "default";
      fn = node;
    } else if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
    ) {
      name = node.name.text;
      fn = node.initializer;
    }
    if (name && fn && /^([A-Z]|default$)/.test(name)) found.push({ name, file, lines: lines(fn) });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const all = () =>
  [...sources("components"), ...sources("app")].flatMap((f) => componentSizes(f, fs.readFileSync(path.join(ROOT, f), "utf8")));

describe("component size", () => {
  it(`no component function is over ${MAX_LINES} lines`, () => {
    const sizes = all().sort((a, b) => b.lines - a.lines);
    if (process.env.COMPONENT_SIZES)
      console.log(
        sizes
          .slice(0, 40)
          .map((s) => `${s.lines}\t${s.name}\t${s.file}`)
          .join("\n"),
      );
    expect(sizes.filter((s) => s.lines > MAX_LINES).map((s) => `${s.file}: ${s.name} (${s.lines} lines)`)).toEqual([]);
  });

  it("the measure finds declared and arrow components and counts their lines", () => {
    const text = [
      "export function Big() {", // 1
      "  const inner = () => 1;", // 2
      "  return <div />;", // 3
      "}", // 4
      "const Small = () => <p />;", // 5
      "export default function () {", // 6
      "  return null;", // 7
      "}", // 8
      "function helper() { return 1; }", // 9
    ].join("\n");
    expect(componentSizes("x.tsx", text)).toEqual([
      { name: "Big", file: "x.tsx", lines: 4 },
      { name: "Small", file: "x.tsx", lines: 1 },
      { name: "default", file: "x.tsx", lines: 3 },
    ]);
    expect(all().length).toBeGreaterThan(100);
  });
});
