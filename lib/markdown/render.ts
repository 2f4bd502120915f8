import MarkdownItCallable, { type MarkdownIt, type Token } from "markdown-it";

// Markdown as researchers write it (project texts, about pages, tutorials, field guides, task text), to
// HTML, with markdown-it (CommonMark, linear-time parsing). Nothing a project writes can run or load from
// another scheme on our pages:
// - raw HTML is off (`html: false`): tags in the source are text, escaped;
// - links and images only to http(s), mailto and site-relative paths (never `//host` or `/\host`, which
//   browsers take as another site's address); any other destination leaves the brackets as text;
// - nesting (quotes, lists, emphasis, links) stops at 20 levels (the CommonMark preset's limit), past which
//   the rest is text, so no input recurses deep;
// - links to other sites open in a new tab without access to ours (rel="noopener noreferrer").
// The same HTML is what the browser shows (components/ui/markdown.tsx) and what the server sends
// (lib/markdown/off-thread.ts renders it on a worker thread). This file imports only markdown-it, so the
// worker thread can load it as it is.

const SAFE_URL = /^(?:https?:\/\/|mailto:|\/(?![/\\]))/i;

const CLASSES: Record<string, string> = {
  heading_open: "font-semibold",
  bullet_list_open: "list-disc flex flex-col gap-1 pl-6",
  ordered_list_open: "list-decimal flex flex-col gap-1 pl-6",
  blockquote_open: "flex flex-col gap-3 border-l-4 border-gray-300 pl-3 text-gray-700",
  hr: "border-gray-200",
  code_inline: "rounded bg-gray-100 px-1",
  code_block: "overflow-x-auto whitespace-pre-wrap rounded bg-gray-100 p-2 text-sm",
  fence: "overflow-x-auto whitespace-pre-wrap rounded bg-gray-100 p-2 text-sm",
  link_open: "text-brand-700 underline",
  image: "inline-block max-h-64 max-w-full",
};

/** Our classes and tags on the tokens markdown-it made (its renderer escapes every attribute). */
function decorate(tokens: Token[]) {
  for (const t of tokens) {
    if (t.children) decorate(t.children);
    if (t.type === "heading_open" || t.type === "heading_close") {
      // The page has its own h1: a text's "#" is the page's h2, and so on down to h6.
      const level = Number(t.tag.slice(1));
      t.tag = `h${Math.min(6, level + 1)}`;
      if (t.nesting === 1) t.attrSet("class", `${level <= 2 ? "text-xl" : "text-lg"} ${CLASSES.heading_open}`);
      continue;
    }
    const cls = CLASSES[t.type];
    if (cls) t.attrJoin("class", cls);
    if (t.type === "link_open" && /^https?:/i.test(String(t.attrGet("href") ?? ""))) {
      t.attrSet("target", "_blank");
      t.attrSet("rel", "noopener noreferrer");
    }
  }
}

function parser(): MarkdownIt {
  const md = new MarkdownItCallable("commonmark", { html: false, linkify: false, typographer: false });
  md.validateLink = (url) => SAFE_URL.test(url);
  md.core.ruler.push("quorum_decorate", (state) => {
    decorate(state.tokens);
  });
  const rules = md.renderer.rules;
  // A fence's info string names no class of ours: rendered as an indented code block.
  rules.fence = rules.code_block;
  // Never produced with `html: false`; should one ever be, it is text.
  rules.html_block = rules.html_inline = (tokens, idx) => md.utils.escapeHtml(tokens[idx].content);
  return md;
}

const blocks = parser();
/** Only paragraphs: headings, lists, quotes, code blocks and the like stay text (see inlineMarkdownToHtml). */
const paragraphs = parser();
paragraphs.block.ruler.enableOnly(["paragraph"]);

/** `source` as HTML blocks (headings, paragraphs, lists, quotes, code, rules, links, images, emphasis). */
export function markdownToHtml(source: string): string {
  return blocks.render(source, {});
}

/**
 * `source` as phrasing content only (for a question in a <legend>, an answer in a <label>): its inline
 * markup, paragraphs separated by a line break, block syntax as text.
 */
export function inlineMarkdownToHtml(source: string): string {
  const env = {};
  return paragraphs
    .parse(source, env)
    .filter((t) => t.type === "inline")
    .map((t) => paragraphs.renderer.renderInline(t.children ?? [], paragraphs.options, env))
    .join("<br />");
}
