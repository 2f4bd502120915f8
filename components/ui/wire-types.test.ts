// The records our pages read from the server are declared once (components/ui/wire-types.ts), each derived
// from the server function that writes it: a call of the browser client names its answer by those types,
// never by a shape written inline, and no component declares a record of the same name again.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const WIRE = path.join("components", "ui", "wire-types.ts");

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sources(rel);
    return /\.tsx?$/.test(e.name) && !/\.test\./.test(e.name) ? [rel] : [];
  });
}
const browserSide = () => [
  ...sources("components"),
  ...sources("app").filter((f) => !/(^|\/)route\.ts$/.test(f) && !f.startsWith("app/api")),
];
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), "utf8");
/** A call of the client with a type argument: `apiGet<...>(`, `request<...>(`. */
const TYPED_CALL = /\b(apiGet|apiPost|apiPutFresh|request|requestOrNull|engineGet|enginePost|countsGet)<(.)/g;

describe("one module of wire types", () => {
  it("every typed call of the browser client names its answer by a declared type, not an inline shape", () => {
    const inline = browserSide().flatMap((f) => [...read(f).matchAll(TYPED_CALL)].filter((m) => m[2] === "{").map((m) => `${f}: ${m[0]}`));
    expect(inline).toEqual([]);
  });

  it("no component declares a record wire-types.ts declares", () => {
    const declared = [...read(WIRE).matchAll(/export (?:interface|type) (\w+)/g)].map((m) => m[1]);
    const again = browserSide()
      .filter((f) => f !== WIRE)
      .flatMap((f) =>
        declared.filter((name) => new RegExp(`\\b(interface|type) ${name}\\b(?! *[,}])`).test(read(f))).map((n) => `${f}: ${n}`),
      );
    expect(again).toEqual([]);
  });

  it("every record type is derived from the server's code (type-only imports), none written by hand", () => {
    const wire = read(WIRE);
    // The envelope's shapes are the browser's own: the records under their type's name, a page's meta, includes.
    const ENVELOPE = new Set(["Records", "RecordPage", "ProjectListPage"]);
    // A serializer's (or a query row's) type through Wire<>, or a part of one such type.
    const DERIVED = /\bSerialized<typeof \w+>|\bWire<\w+>|^(NonNullable<)?[A-Z]\w+\[/;
    const declared = [...wire.matchAll(/^export type (\w+)(?:<[^>]*>)? = ([^;]+);/gm)];
    const handWritten = declared.filter(([, name, body]) => !ENVELOPE.has(name) && !DERIVED.test(body.trim())).map(([, name]) => name);
    expect(handWritten).toEqual([]);
    expect(wire).not.toMatch(/^export interface /m);
    expect(wire.match(/^import (?!type ).*/gm) ?? []).toEqual([]);
    expect(declared.length).toBeGreaterThan(25);
  });

  it("the checks see the calls (they are not vacuous)", () => {
    const calls = browserSide().flatMap((f) => [...read(f).matchAll(TYPED_CALL)]);
    expect(calls.length).toBeGreaterThan(30);
    expect([..."const x = apiGet<{ a: 1 }>(".matchAll(TYPED_CALL)][0][2]).toBe("{");
  });
});
