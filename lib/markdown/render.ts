import MarkdownItCallable, { type MarkdownIt, type Token } from "markdown-it";

// Markdown as researchers write it (project texts, about pages, tutorials, field guides, task text), to
// HTML, with markdown-it (CommonMark, linear-time parsing). Nothing a project writes can run or load from
// another scheme on our pages:
// - raw HTML is off (`html: false`): tags in the source are text, escaped;
// - links and images only to http(s), mailto and site-relative paths (never `//host` or `/\host`, which
//   browsers take as another site's address); any other destination leaves the brackets as text;
// - nesting (quotes, lists, emphasis, links) stops at 20 levels (the CommonMark preset's limit): markdown-it
//   leaves out what is nested deeper, so no input recurses deep;
// - links to other sites open in a new tab without access to ours (rel="noopener noreferrer").
// The same HTML is what the browser shows (components/ui/markdown.tsx) and what the server sends
// (lib/markdown/off-thread.ts renders it on a worker thread). This file imports only markdown-it, so the
// worker thread can load it as it is.

const SAFE_URL = /^(?:https?:\/\/|mailto:|\/(?![/\\]))/i;

/** Our tags and link targets on the tokens markdown-it made (its renderer escapes every attribute). */
function decorate(tokens: Token[]) {
  for (const t of tokens) {
    if (t.children) decorate(t.children);
    // The page has its own h1: a text's "#" is the page's h2, and so on down to h6.
    if (t.type === "heading_open" || t.type === "heading_close") t.tag = `h${Math.min(6, Number(t.tag.slice(1)) + 1)}`;
    if (t.type === "link_open" && /^https?:/i.test(String(t.attrGet("href") ?? ""))) {
      t.attrSet("target", "_blank");
      t.attrSet("rel", "noopener noreferrer");
    }
  }
}

/** Text content needs only & and < escaped. */
const escapeText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

function parser(): MarkdownIt {
  const md = new MarkdownItCallable("commonmark", { html: false, linkify: false, typographer: false });
  md.validateLink = (url) => SAFE_URL.test(url);
  md.core.ruler.push("quorum_decorate", (state) => {
    decorate(state.tokens);
  });
  const rules = md.renderer.rules;
  // A fence's info string names no class of ours: rendered as an indented code block.
  rules.fence = rules.code_block;
  // Text needs only & and < escaped (markdown-it also escapes > and ", which makes a text of quotes six
  // times as long in HTML).
  rules.text = (tokens, idx) => escapeText(tokens[idx].content);
  // Never produced with `html: false`; should one ever be, it is text.
  rules.html_block = rules.html_inline = (tokens, idx) => md.utils.escapeHtml(tokens[idx].content);
  return md;
}

const blocks = parser();
/** Only paragraphs: headings, lists, quotes, code blocks and the like stay text (see inlineMarkdownToHtml). */
const paragraphs = parser();
paragraphs.block.ruler.enableOnly(["paragraph"]);

/**
 * The longest HTML a text of `length` characters may become: three times its length, and 20,000 characters
 * more. Ordinary Markdown stays under twice its length; past this limit it is no longer formatting but a
 * text made of thousands of tiny elements or escaped characters (empty list items, autolinks, runs of `<` or
 * `&`), whose HTML would be up to five times its length, and every byte of it is serialized twice on the
 * server's thread (the page and its React payload). Such a text is shown as it is (escaped), or, should even
 * that be too long, not at all.
 */
const htmlLimit = (length: number) => 3 * length + 20_000;

function limited(source: string, html: string, wrap: (text: string) => string): string {
  if (html.length <= htmlLimit(source.length)) return html;
  const text = escapeText(source);
  return text.length <= htmlLimit(source.length) ? wrap(text) : wrap("(This text cannot be shown: it is made of little but markup.)");
}

/**
 * `source` as HTML blocks (headings, paragraphs, lists, quotes, code, rules, links, images, emphasis), or
 * the text as it is in one paragraph (htmlLimit). Styled by the `markdown` class on its wrapper
 * (app/globals.css).
 */
export function markdownToHtml(source: string): string {
  return limited(source, blocks.render(source, {}), (text) => `<p class="whitespace-pre-wrap">${text}</p>\n`);
}

/**
 * `source` as phrasing content only (for a question in a <legend>, an answer in a <label>): its inline
 * markup, paragraphs separated by a line break, block syntax as text (or the text as it is, as above).
 * Styled by the `markdown-inline` class on its wrapper.
 */
export function inlineMarkdownToHtml(source: string): string {
  const env = {};
  const html = paragraphs
    .parse(source, env)
    .filter((t) => t.type === "inline")
    .map((t) => paragraphs.renderer.renderInline(t.children ?? [], paragraphs.options, env))
    .join("<br />");
  return limited(source, html, (text) => text);
}
