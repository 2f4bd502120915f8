import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./markdown";

const html = (source: string) => renderToStaticMarkup(createElement(Markdown, { source }));

describe("Markdown", () => {
  it.each([
    ["# Title", /<h2[^>]*>Title<\/h2>/],
    [
      "Some **bold** and *italic* and _also_ `code`",
      /Some <strong>bold<\/strong> and <em>italic<\/em> and <em>also<\/em> <code[^>]*>code<\/code>/,
    ],
    ["- one\n- two", /<ul[^>]*><li>one<\/li><li>two<\/li><\/ul>/],
    ["1. first\n2. second", /<ol[^>]*><li>first<\/li><li>second<\/li><\/ol>/],
    ["> quoted", /<blockquote[^>]*>quoted<\/blockquote>/],
    ["[site](https://example.org)", /<a href="https:\/\/example.org"[^>]*target="_blank" rel="noopener noreferrer"[^>]*>site<\/a>/],
    ["[about](/projects/1/about/team)", /<a href="\/projects\/1\/about\/team"[^>]*>about<\/a>/],
    ["![a fox](https://example.org/fox.png)", /<img src="https:\/\/example.org\/fox.png" alt="a fox"/],
    ["line one\nline two\n\nnext paragraph", /<p>line one line two<\/p><p>next paragraph<\/p>/],
    ["---", /<hr/],
  ])("%j renders as markup", (source, expected) => {
    expect(html(source)).toMatch(expected);
  });

  it.each([
    ["<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"],
    ["<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"],
    ["[click](javascript:alert(1))", "click"],
    ["[x](//evil.example/)", "x"],
    ["![p](data:image/svg+xml,<svg onload=alert(1)>)", "![p](data:image/svg+xml,&lt;svg onload=alert(1)&gt;)"],
  ])("never runs what it is given: %j", (source, text) => {
    const out = html(source);
    expect(out).toContain(text);
    expect(out).not.toMatch(/<script|<img[^>]*onerror|href="javascript|href="\/\/|src="data/);
  });
});
