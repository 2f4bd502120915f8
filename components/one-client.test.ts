// Our pages talk to the server through one client (components/ui/api-client.ts): the same headers,
// credentials and error messages everywhere. A component that calls fetch itself is refused here.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const CLIENT = path.join("components", "ui", "api-client.ts");

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sources(rel);
    return /\.(tsx?|jsx?)$/.test(e.name) && !/\.test\.|\.spec\./.test(e.name) ? [rel] : [];
  });
}

/** Files of the browser side: components, and app's pages and layouts (route handlers are the server). */
const browserSide = () => [...sources("components"), ...sources("app").filter((f) => !/(^|\/)route\.ts$/.test(f))];

describe("one browser client", () => {
  it("no component or page calls fetch itself", () => {
    const offenders = browserSide()
      .filter((f) => f !== CLIENT)
      .filter((f) => /(^|[^.\w])fetch\(/.test(fs.readFileSync(path.join(ROOT, f), "utf8").replace(/\/\/.*$/gm, "")));
    expect(offenders).toEqual([]);
  });

  it("the check sees a direct call (it is not vacuous)", () => {
    expect(browserSide().length).toBeGreaterThan(50);
    expect(/(^|[^.\w])fetch\(/.test(fs.readFileSync(path.join(ROOT, CLIENT), "utf8"))).toBe(true);
  });
});
