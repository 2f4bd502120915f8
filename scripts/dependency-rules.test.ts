import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { type ICruiseResult, type IConfiguration, type IViolation, cruise } from "dependency-cruiser";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { afterAll, describe, expect, it } from "vitest";

// The import rules of .dependency-cruiser.cjs (npm run lint:deps), checked from both sides: the real tree
// passes, every folder of lib/ has a unit with a layer, the units' lists only point down, and each rule
// fails when a forbidden import is planted. The plants go into a small tree of our own in a temporary
// directory, one stub module per unit (so a plant's violations are its own), with the same options and an
// `@/` path alias like the project's.

interface Unit {
  unit: string;
  layer: string;
  may: string[];
}
const require = createRequire(import.meta.url);
const config: IConfiguration & { units: Unit[] } = require("../.dependency-cruiser.cjs");
const units = config.units;
const rules = config.forbidden ?? [];
const ERRORS = "lib/errors.ts";
const ruleOf = (unit: string) => `layer-${unit.replace(/^lib\//, "").replace(/[/.]/g, "-")}`;
const ROOT = path.resolve(import.meta.dirname, "..");
/** What npm run lint:deps cruises. */
const CRUISED = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts["lint:deps"] as string)
  .replace(/^depcruise /, "")
  .replace(/ --config .*$/, "")
  .split(" ");

async function check(baseDir: string, inputs: string[]): Promise<ICruiseResult> {
  const tsConfig = path.join(baseDir, "tsconfig.json");
  const { output } = await cruise(
    inputs,
    { ...config.options, ruleSet: { forbidden: rules }, validate: true, baseDir, tsConfig: { fileName: tsConfig } },
    {},
    { tsConfig: extractTSConfig(tsConfig) },
  );
  return output as ICruiseResult;
}

describe("the import rules on the real tree", () => {
  it("npm run lint:deps's inputs pass, and every @/ import resolves (an unresolved one would pass every rule)", async () => {
    const result = await check(ROOT, CRUISED);
    expect(result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
    const unresolved = result.modules.flatMap((m) =>
      m.dependencies.filter((d) => d.couldNotResolve && d.module.startsWith("@/")).map((d) => `${m.source} → ${d.module}`),
    );
    expect(unresolved).toEqual([]);
    expect(result.summary.totalCruised).toBeGreaterThan(400);
  });

  it("every entry of lib/ is a unit with a layer, and every unit is on disk", () => {
    const listed = new Set(units.map((u) => u.unit.split("/").slice(0, 2).join("/")));
    expect(
      readdirSync(path.join(ROOT, "lib"))
        .map((entry) => `lib/${entry}`)
        .filter((e) => !listed.has(e) && e !== ERRORS),
    ).toEqual([]);
    for (const { unit } of units) expect(readdirSync(path.join(ROOT, path.dirname(unit)))).toContain(path.basename(unit));
  });

  it("the units are listed top to bottom and each may import only units below it: no list runs up or round a circle", () => {
    const rank = new Map(units.map((u, i) => [u.unit, i]));
    const upwards = units.flatMap((u) => u.may.filter((t) => !((rank.get(t) ?? -1) > rank.get(u.unit)!)).map((t) => `${u.unit} → ${t}`));
    expect(upwards).toEqual([]);
  });

  // What the lists may say, stated apart from them: a list that grows past its bound fails here.
  const BROWSER = ["lib/lab", "lib/classifier", "lib/tasks", "lib/i18n", "lib/engine", "lib/text"];
  it.each([
    ...["lib/lab", "lib/classifier", "lib/tasks", "lib/i18n", "lib/engine"].map((unit) => ({ unit, within: BROWSER })),
    { unit: "lib/net", within: ["lib/env.ts", "lib/log", "lib/text"] },
    { unit: "lib/mail", within: ["lib/env.ts", "lib/log", "lib/text"] },
    { unit: "lib/db", within: ["lib/generated", "lib/env.ts", "lib/log"] },
    { unit: "lib/text", within: [] },
  ])("$unit imports only from $within", ({ unit, within }) => {
    expect(units.find((u) => u.unit === unit)?.may.filter((t) => !within.includes(t))).toEqual([]);
  });

  it("every unit (but the generated client, which is not read) has its layer rule", () => {
    const names = new Set(rules.map((r) => r.name));
    expect(units.filter((u) => u.unit !== "lib/generated" && !names.has(ruleOf(u.unit))).map((u) => u.unit)).toEqual([]);
  });
});

describe("each rule fails on a planted import", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "dependency-rules-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** One stub module per unit, per entry-point folder, and AppError. */
  const stubOf = (unit: string) => (unit.endsWith(".ts") ? unit : `${unit}/stub.ts`);
  const STUBS = [
    ...units.map((u) => stubOf(u.unit)),
    ERRORS,
    ...["app", "components", "inngest", "scripts", "bench", "test", "e2e"].map((d) => `${d}/stub.ts`),
  ];
  const importsOf = (targets: string[]) =>
    `${targets.map((t) => `import "@/${t.replace(/\.ts$/, "")}";`).join("\n")}\nexport const planted = 1;\n`;

  let trees = 0;
  /** A fresh tree of stubs with `files` written over it; the violations of a cruise of it. */
  async function plant(files: Record<string, string>): Promise<IViolation[]> {
    const dir = path.join(scratch, String(trees++));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    write(
      "tsconfig.json",
      JSON.stringify({ compilerOptions: { module: "esnext", moduleResolution: "bundler", paths: { "@/*": ["./*"] } } }),
    );
    for (const stub of STUBS) write(stub, "export const stub = 1;\n");
    for (const [file, text] of Object.entries(files)) write(file, text);
    return (await check(dir, ["app", "components", "lib", "inngest", "scripts", "bench"])).summary.violations;
  }
  const pairs = (violations: IViolation[], rule: string) =>
    violations.filter((v) => v.rule.name === rule).map((v) => `${v.from} → ${v.to}`);

  it("the tree of stubs alone passes", async () => {
    expect(await plant({})).toEqual([]);
  });

  // A module of the unit imports every stub: its unit's rule refuses exactly the ones the unit's list leaves out.
  it.each(units.filter((u) => u.unit !== "lib/generated").map((u) => [ruleOf(u.unit), u] as const))(
    "%s: a module of the unit importing every unit is refused exactly the units not in its list",
    async (rule, { unit, may }) => {
      const from = unit.endsWith(".ts") ? unit : `${unit}/planted.ts`;
      const targets = STUBS.filter((s) => s !== from);
      const allowed = new Set([stubOf(unit), ERRORS, ...may.map(stubOf)]);
      const forbidden = targets.filter((s) => !allowed.has(s));
      expect(forbidden.length).toBeGreaterThan(0);
      expect(pairs(await plant({ [from]: importsOf(targets) }), rule).sort()).toEqual(forbidden.map((s) => `${from} → ${s}`).sort());
    },
  );

  it.each<{ rule: string; files: Record<string, string>; expected: string[] }>([
    {
      rule: "no-circular",
      files: { "lib/text/a.ts": importsOf(["lib/text/b"]), "lib/text/b.ts": importsOf(["lib/text/a"]) },
      expected: ["lib/text/a.ts → lib/text/b.ts"], // a cycle is reported once
    },
    {
      rule: "lib-folder-has-a-layer",
      files: { "lib/new-folder/a.ts": importsOf(["lib/text/stub"]) },
      expected: ["lib/new-folder/a.ts → lib/text/stub.ts"],
    },
    {
      rule: "lib-import-has-a-layer",
      files: { "lib/new-folder/a.ts": "export const a = 1;\n", "app/page.ts": importsOf(["lib/new-folder/a"]) },
      expected: ["app/page.ts → lib/new-folder/a.ts"],
    },
    {
      // lib/http may import lib/text: only this rule sees that AppError, imported everywhere, imports anything.
      rule: "errors-is-a-leaf",
      files: { [ERRORS]: importsOf(["lib/text/stub"]) },
      expected: [`${ERRORS} → lib/text/stub.ts`],
    },
    {
      rule: "components-only-browser-code",
      files: {
        "components/view.tsx": importsOf(["lib/db/stub", "lib/domain/stub", "lib/engine/run/stub", "app/stub", "lib/lab/stub", ERRORS]),
      },
      expected: [
        "components/view.tsx → lib/db/stub.ts",
        "components/view.tsx → lib/domain/stub.ts",
        "components/view.tsx → lib/engine/run/stub.ts",
        "components/view.tsx → app/stub.ts",
      ],
    },
    {
      // Each import is allowed on its own (components → the lab → AppError; lib/http → lib/db), so only
      // reachability sees that the browser now loads the database layer.
      rule: "browser-reaches-only-browser-code",
      files: {
        "components/view.tsx": importsOf(["lib/lab/form"]),
        "lib/lab/form.ts": importsOf([ERRORS]),
        [ERRORS]: importsOf(["lib/db/stub"]),
      },
      expected: ["components/view.tsx → lib/db/stub.ts", "lib/lab/form.ts → lib/db/stub.ts"],
    },
    {
      rule: "browser-reaches-only-browser-code",
      files: { "lib/tasks/types.ts": `import type { User } from "@/lib/generated/stub";\nexport type Owner = User;\n` },
      expected: ["lib/tasks/types.ts → lib/generated/stub.ts"],
    },
    {
      rule: "handlers-only-from-routes",
      files: { "scripts/run.ts": importsOf(["lib/handlers/stub"]) },
      expected: ["scripts/run.ts → lib/handlers/stub.ts"],
    },
  ])("$rule: $expected.0", async ({ rule, files, expected }) => {
    expect(pairs(await plant(files), rule).sort()).toEqual([...expected].sort());
  });
});
