"use client";
import { useMemo } from "react";
import { inlineMarkdownToHtml, markdownToHtml } from "@/lib/markdown/render";

// Markdown rendered in the browser (task text, tutorials, field guides, the lab's previews), as
// lib/markdown/render.ts makes it: no raw HTML, links and images to safe places only. Pages the server
// renders use components/ui/server-markdown.tsx instead (a worker thread renders it there), and no
// server-rendered page may render these with content (the lab's workflow preview waits for the browser):
// app/ never imports this file (npm run lint:deps).

/** Renders `source` as Markdown blocks; `className` styles the wrapper. */
export function Markdown({ source, className = "" }: { source: string; className?: string }) {
  const html = useMemo(() => markdownToHtml(source), [source]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: lib/markdown/render.ts escapes all text and allows no raw HTML and only safe link destinations (its tests check every tag and attribute it can produce)
  return <div className={`markdown ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}

/**
 * Markdown where only phrasing content may stand (a question in a <legend>, an answer in a <label>): its
 * inline markup in a <span>, paragraphs separated by a line break; block syntax stays text.
 */
export function InlineMarkdown({ source }: { source: string }) {
  const html = useMemo(() => inlineMarkdownToHtml(source), [source]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: lib/markdown/render.ts escapes all text and allows no raw HTML and only safe link destinations (its tests check every tag and attribute it can produce)
  return <span className="markdown-inline" dangerouslySetInnerHTML={{ __html: html }} />;
}
