import { describe, expect, it } from "vitest";
import { benignText, HOSTILE_SHAPES } from "@/test/hostile-text";
import { renderMarkdownOffThread } from "./off-thread";
import { markdownToHtml } from "./render";

/** The longest the event loop went without turning while `work` ran (a 1 ms timer's largest gap). */
async function longestStall(work: () => unknown): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  await new Promise((r) => setTimeout(r, 5));
  await work();
  await new Promise((r) => setTimeout(r, 5));
  clearInterval(timer);
  return Math.max(longest, performance.now() - last);
}

describe("renderMarkdownOffThread", () => {
  it.each([["# Title\n\nSome **bold** [link](https://example.org)."], ["<script>alert(1)</script>"], [""], [benignText(5000)]])(
    "renders %j as lib/markdown/render.ts does",
    async (source) => {
      expect(await renderMarkdownOffThread(source)).toBe(markdownToHtml(source));
    },
  );

  it("keeps the event loop turning while it renders a hostile about page (500,000 characters)", { timeout: 60_000 }, async () => {
    const texts = ["[", "![", "# a headings", "setext headings"].map((s) => HOSTILE_SHAPES[s](500_000));
    // The same texts rendered on this thread stall it for as long as they take (the monitor sees it)...
    let inThread = 0;
    const stalledInThread = await longestStall(() => {
      const t0 = performance.now();
      for (const t of texts) markdownToHtml(t);
      inThread = performance.now() - t0;
    });
    expect(stalledInThread).toBeGreaterThanOrEqual(inThread * 0.9);
    // ...and on the worker thread they do not.
    const stalled = await longestStall(() => Promise.all(texts.map((t) => renderMarkdownOffThread(`${t} `))));
    expect(stalled, `rendered in ${Math.round(inThread)} ms on this thread`).toBeLessThan(100);
  });

  it("renders a text asked again while it is rendered, or soon after, once", async () => {
    const source = `${benignText(20_000)} once`;
    const first = renderMarkdownOffThread(source);
    expect(renderMarkdownOffThread(source)).toBe(first);
    await first;
    expect(renderMarkdownOffThread(source)).toBe(first);
  });
});
