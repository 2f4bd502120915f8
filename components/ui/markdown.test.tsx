import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { InlineMarkdown, Markdown } from "./markdown";

// markdown-it puts a line break after each block tag; the patterns compare markup without them.
const html = (source: string) => renderToStaticMarkup(createElement(Markdown, { source })).replace(/>\n/g, ">");
const inlineHtml = (source: string) => renderToStaticMarkup(createElement(InlineMarkdown, { source }));

describe("Markdown", () => {
  it.each([
    ["# Title", /<h2[^>]*>Title<\/h2>/],
    [
      "Some **bold** and *italic* and _also_ `code`",
      /Some <strong>bold<\/strong> and <em>italic<\/em> and <em>also<\/em> <code[^>]*>code<\/code>/,
    ],
    ["- one\n- two", /<ul[^>]*><li>one<\/li><li>two<\/li><\/ul>/],
    ["1. first\n2. second", /<ol[^>]*><li>first<\/li><li>second<\/li><\/ol>/],
    // CommonMark: a quote holds paragraphs.
    ["> quoted", /<blockquote[^>]*><p>quoted<\/p><\/blockquote>/],
    ["[site](https://example.org)", /<a href="https:\/\/example.org"[^>]*target="_blank" rel="noopener noreferrer"[^>]*>site<\/a>/],
    ["[about](/projects/1/about/team)", /<a href="\/projects\/1\/about\/team"[^>]*>about<\/a>/],
    ["![a fox](https://example.org/fox.png)", /<img src="https:\/\/example.org\/fox.png" alt="a fox"/],
    // CommonMark: the line break inside a paragraph stays a line break in the HTML (shown as a space).
    ["line one\nline two\n\nnext paragraph", /<p>line one\nline two<\/p><p>next paragraph<\/p>/],
    ["---", /<hr/],
    ["snake_case_name and _this_", /snake_case_name and <em>this<\/em>/],
  ])("%j renders as markup", (source, expected) => {
    expect(html(source)).toMatch(expected);
  });

  it.each([
    ["<script>alert(1)</script>", "&lt;script>alert(1)&lt;/script>"],
    ["<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)>"],
    ["[click](javascript:alert(1))", "click"],
    ["[x](//evil.example/)", "x"],
    ["![p](data:image/svg+xml,<svg onload=alert(1)>)", "![p](data:image/svg+xml,&lt;svg onload=alert(1)>)"],
  ])("never runs what it is given: %j", (source, text) => {
    const out = html(source);
    expect(out).toContain(text);
    expect(out).not.toMatch(/<script|<img[^>]*onerror|href="javascript|href="\/\/|src="data/);
  });

  it.each([
    ["Is it **half hidden**?", '<span class="markdown-inline">Is it <strong>half hidden</strong>?</span>'],
    ["one\ntwo\n\nthree", '<span class="markdown-inline">one\ntwo<br />three</span>'],
    ["# not a heading", '<span class="markdown-inline"># not a heading</span>'],
    ["![fox](https://example.org/f.png) Fox", '<span class="markdown-inline"><img src="https://example.org/f.png" alt="fox" /> Fox</span>'],
  ])("inline: %j stays phrasing content", (source, expected) => {
    expect(inlineHtml(source)).toBe(expected);
  });

  it.each([
    "<script>alert(1)</script>",
    "[x](javascript:alert(1))",
    "[x](JAVASCRIPT:alert(1))",
    "[x]( javascript:alert(1))",
    "![x](javascript:alert(1))",
    "[x](vbscript:msgbox(1))",
    "<a href=javascript:alert(1)>x</a>",
  ])("inline never runs what it is given: %j", (source) => {
    expect(inlineHtml(source)).not.toMatch(/<script|<a |<img[^>]*src="(?!https)/);
  });
});
