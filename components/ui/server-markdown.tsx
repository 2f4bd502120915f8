import { renderMarkdownOffThread } from "@/lib/markdown/off-thread";

/**
 * Markdown in a page the server renders (a project's texts and about pages, an organization's
 * introduction): the same HTML as components/ui/markdown.tsx, rendered on a worker thread so that no text
 * holds the server's event loop. Should the render fail, the text is shown as it is.
 */
export async function ServerMarkdown({ source, className = "" }: { source: string; className?: string }) {
  const html = await renderMarkdownOffThread(source);
  if (html === null) return <div className={`whitespace-pre-wrap ${className}`}>{source}</div>;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: lib/markdown/render.ts escapes all text and allows no raw HTML and only safe link destinations (its tests check every tag and attribute it can produce)
  return <div className={`markdown ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
