import { describe, expect, it } from "vitest";
import { benignText, HOSTILE_SHAPES } from "@/test/hostile-text";
import { inlineMarkdownToHtml, markdownToHtml } from "./render";

// The renderer's own time on every hostile shape (test/hostile-text.ts) at 100,000 characters (the limit of
// a project's texts, a tutorial step, a field guide item, a translated string): at most 3 times what ordinary
// Markdown of the same length takes, plus 50 ms. markdown-it stays within 1.5 times; the hand-written
// renderer this replaced took 8 to 26 s on 100,000 `[` (ordinary text: 50 ms). A time over the bound is
// measured twice more, and then ordinary Markdown again (the machine may have slowed down meanwhile): the
// best counts, as a pause of the machine is no renderer's time. Longer texts (a 500,000-character about
// page) are rendered off the server's thread (off-thread.test.ts, e2e/api/hostile-markdown.spec.ts).

const LENGTH = 100_000;

/** The best of `runs` renders of `text`, stopping early once one is within `within` ms. */
function best(render: (s: string) => string, text: string, runs: number, within = 0): number {
  let ms = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs && ms > within; i++) {
    const t0 = performance.now();
    render(text);
    ms = Math.min(ms, performance.now() - t0);
  }
  return ms;
}

describe.each([
  { name: "markdownToHtml", render: markdownToHtml },
  { name: "inlineMarkdownToHtml", render: inlineMarkdownToHtml },
])("$name", ({ render }) => {
  const ordinary = benignText(LENGTH);
  let benign = 0;
  it("renders ordinary Markdown", () => {
    render(ordinary); // warm up
    benign = best(render, ordinary, 3);
    expect(benign).toBeGreaterThan(0);
  });

  it.each(Object.keys(HOSTILE_SHAPES))("%s: within 3 times ordinary Markdown's time", (shape) => {
    const text = HOSTILE_SHAPES[shape](LENGTH);
    let bound = 3 * benign + 50;
    let ms = best(render, text, 3, bound);
    if (ms > bound) {
      benign = best(render, ordinary, 2);
      bound = 3 * benign + 50;
      ms = Math.min(ms, best(render, text, 2, bound));
    }
    expect(ms, `${shape}: ${Math.round(ms)} ms, ordinary Markdown ${Math.round(benign)} ms`).toBeLessThan(bound);
  });
});
