import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inlineMarkdownToHtml, markdownToHtml } from "./render";

// markdown-it puts a line break after each block tag; the tables compare markup without them.
const html = (source: string) => markdownToHtml(source).replace(/>\n/g, ">");

describe("markdownToHtml", () => {
  it.each([
    ["# Title", "<h2>Title</h2>"],
    ["###### Deepest", "<h6>Deepest</h6>"],
    ["Setext\n===", "<h2>Setext</h2>"],
    ["a  \nb", "<p>a<br />b</p>"],
    ["    indented code", "<pre><code>indented code\n</code></pre>"],
    // A fence's info string names no class: it is dropped.
    ['```js" onclick="x\n<b>\n```', "<pre><code>&lt;b&gt;\n</code></pre>"],
    ["3. three\n4. four", '<ol start="3"><li>three</li><li>four</li></ol>'],
    ["- a\n  - b", "<ul><li>a\n<ul><li>b</li></ul></li></ul>"],
    [
      '[ref][r]\n\n[r]: https://example.org "Title"',
      '<p><a href="https://example.org" title="Title" target="_blank" rel="noopener noreferrer">ref</a></p>',
    ],
    ["<https://example.org>", '<p><a href="https://example.org" target="_blank" rel="noopener noreferrer">https://example.org</a></p>'],
    ["<owl@example.org>", '<p><a href="mailto:owl@example.org">owl@example.org</a></p>'],
    ['&copy; &amp; &#35; &bogus; "quoted" > <', '<p>© &amp; # &amp;bogus; "quoted" > &lt;</p>'],
    ["\\*not emphasis\\*", "<p>*not emphasis*</p>"],
    ["![a *fox*](/uploads/fox.png)", '<p><img src="/uploads/fox.png" alt="a fox" /></p>'],
  ])("%j (CommonMark)", (source, expected) => {
    expect(html(source)).toBe(expected);
  });

  // Every way a destination could name a script, another site's protocol-relative address or data: the
  // brackets stay text (or, for an autolink, the angle brackets).
  it.each([
    "[x](javascript:alert(1))",
    "[x](JAVASCRIPT:alert(1))",
    "[x]( javascript:alert(1))",
    "[x](<javascript:alert(1)>)",
    "[x](&#106;avascript:alert(1))",
    "[x](java&#x09;script:alert(1))",
    "[x](vbscript:msgbox(1))",
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "[x](file:///etc/passwd)",
    "[x](//evil.example/)",
    "[x](\\\\evil.example/)",
    "[x](ftp://evil.example/)",
    "![x](javascript:alert(1))",
    "![x](data:image/svg+xml,%3Csvg%20onload%3Dalert(1)%3E)",
    "<javascript:alert(1)>",
    "[x][r]\n\n[r]: javascript:alert(1)",
  ])("%j links nowhere", (source) => {
    const out = markdownToHtml(source);
    expect(out).not.toMatch(/<a |<img /);
    expect(inlineMarkdownToHtml(source)).not.toMatch(/<a |<img /);
  });

  it.each([
    ["[x](/\\evil)", "/%5Cevil"],
    ["[x](</\t/evil>)", "/%09/evil"],
    ['[x](/a"onmouseover="alert(1))', "/a%22onmouseover=%22alert(1)"],
  ])("%j stays on this site, escaped", (source, href) => {
    expect(markdownToHtml(source)).toContain(`href="${href}"`);
  });
});

// What may appear in the output: these tags, these attributes, and links and images to safe places only.
const TAGS: Record<string, string[]> = {
  p: ["class"],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  ul: [],
  ol: ["start"],
  li: [],
  blockquote: [],
  hr: [],
  pre: [],
  code: [],
  br: [],
  em: [],
  strong: [],
  a: ["href", "title", "target", "rel"],
  img: ["src", "alt", "title"],
};
const SAFE_URL = /^(?:https?:\/\/|mailto:|\/(?![/\\]))/i;

/** Why `out` is not markup we allow, or null. Tags are found by < (text never has one: it is escaped). */
function unsafe(out: string): string | null {
  const tags = out.split("<").slice(1);
  for (const tag of tags) {
    const m = /^\/?([a-z0-9]+)((?: [a-z]+="[^"<>]*")*)(?: \/)?>/.exec(tag);
    if (!m) return `not a tag: <${tag.slice(0, 40)}`;
    const [, name, attrs] = m;
    if (!TAGS[name]) return `tag ${name}`;
    for (const [, attr, value] of attrs.matchAll(/ ([a-z]+)="([^"]*)"/g)) {
      if (!TAGS[name].includes(attr)) return `attribute ${attr} on ${name}`;
      const url = value.replace(/&amp;/g, "&");
      if ((attr === "href" || attr === "src") && !SAFE_URL.test(url)) return `${attr}=${value}`;
      if (attr === "target" && value !== "_blank") return `target=${value}`;
      if (attr === "class" && value !== "whitespace-pre-wrap") return `class=${value}`;
    }
  }
  return null;
}

describe("a text whose HTML would be far longer than it", () => {
  const paragraph = (text: string) => `<p class="whitespace-pre-wrap">${text}</p>\n`;
  it.each([
    ["autolinks", "<a@b.c>".repeat(10_000), paragraph("&lt;a@b.c>".repeat(10_000))],
    ["empty list items", "-\n".repeat(20_000), paragraph("-\n".repeat(20_000))],
    ["a run of <", "<".repeat(50_000), paragraph("(This text cannot be shown: it is made of little but markup.)")],
    ["a run of &", "&".repeat(50_000), paragraph("(This text cannot be shown: it is made of little but markup.)")],
  ])("%s: shown as it is, or not at all", (_, source, expected) => {
    expect(markdownToHtml(source)).toBe(expected);
    expect(markdownToHtml(source).length).toBeLessThan(3 * source.length + 20_000);
  });

  it("while ordinary Markdown of the same length is formatted", () => {
    const source = "## Owls\n\nOwls are **birds**; see [the guide](https://example.org/owls).\n\n- one\n- two\n\n".repeat(500);
    expect(markdownToHtml(source)).toContain("<h3>Owls</h3>");
  });
});

describe("whatever it is given", () => {
  const piece = fc.oneof(
    fc.constantFrom(
      "[",
      "]",
      "(",
      ")",
      "![",
      "<",
      ">",
      "*",
      "_",
      "`",
      "~",
      "#",
      "-",
      "+",
      "1.",
      "&",
      ";",
      "\\",
      "\n",
      " ",
      "\t",
      '"',
      "'",
      "=",
      ":",
      "javascript:",
      "JaVaScRiPt:",
      "data:",
      "vbscript:",
      "//",
      "/\\",
      "http://",
      "https://x.org",
      "mailto:",
      "&#106;",
      "&colon;",
      "<script>",
      "</script>",
      "<img src=x onerror=alert(1)>",
      "<a href=",
      "onerror=",
      "<!--",
      "-->",
      "<![CDATA[",
      "&lt;",
      "&#x3C;",
      "    ",
      "> ",
      "- ",
      "```",
      "~~~",
      "[a]: ",
      "<http://x>",
    ),
    fc.string({ maxLength: 4 }),
  );
  const text = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(""));

  it("renders only allowed tags and attributes, and links and images only to safe places", () => {
    fc.assert(
      fc.property(text, (source) => {
        expect(unsafe(markdownToHtml(source)), source).toBeNull();
        expect(unsafe(inlineMarkdownToHtml(source)), source).toBeNull();
      }),
      { numRuns: 3000 },
    );
  });

  it("the check above refuses what it must", () => {
    expect(unsafe('<p><a href="javascript:alert(1)">x</a></p>')).toBe("href=javascript:alert(1)");
    expect(unsafe('<img src="//evil.example/x.png" />')).toBe("src=//evil.example/x.png");
    expect(unsafe("<script>")).toBe("tag script");
    expect(unsafe('<p onclick="x">')).toBe("attribute onclick on p");
    expect(unsafe('<p class="x">')).toBe("class=x");
    expect(unsafe("<p>a < b</p>")).toBe("not a tag: < b");
    expect(unsafe('<p><a href="/x" title="y">x &amp; y > z</a></p>')).toBeNull();
  });
});
