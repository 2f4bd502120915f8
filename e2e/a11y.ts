// What the UI specs share for accessibility and screenshots: an axe-core scan that fails on serious or
// critical violations, and screenshots at the two widths every touched page is looked at in
// (test-results/screenshots/, kept as test artifacts, not committed).
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export const SHOTS = path.resolve("test-results/screenshots");

/** No serious or critical WCAG 2.1 A/AA violation on the page (or inside `include`, a selector). */
export async function scan(page: Page, name: string, include?: string) {
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  expect(
    results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join("; ")})`),
    `${name}: serious accessibility violations`,
  ).toEqual([]);
}

/**
 * Full-page screenshots at 1280 and 375 px (`<name>-<width>.png`), the viewport left at 1280 × 900.
 * `fitsPhone`: also expects (softly) nothing wider than the screen at 375 px.
 */
export async function shoot(page: Page, name: string, { fitsPhone = false }: { fitsPhone?: boolean } = {}) {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
    if (fitsPhone && width === 375)
      expect.soft(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at 375 px`).toBeLessThanOrEqual(375);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** One screenshot at the page's current width (`<name>-<width>.png`). */
export async function shot(page: Page, name: string, fullPage = false) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}-${page.viewportSize()!.width}.png`), fullPage });
}
