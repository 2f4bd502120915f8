import { Fragment, type ReactNode } from "react";

// Markdown as researchers write it in project texts, field guides and tutorials, rendered to React elements
// (never to an HTML string): headings, paragraphs, bold, italics, inline code, links (http(s), mailto and
// site-relative only), images, bullet and numbered lists, block quotes and rules. Raw HTML in the source
// is shown as text, so nothing a project writes can run on our pages.

const SAFE_URL = /^(https?:\/\/|mailto:|\/(?!\/))/i;

/** Inline markup of one line: `code`, ![alt](src), [text](href), **bold**, *italic* or _italic_. */
function inline(text: string, key: string): ReactNode[] {
  const out: ReactNode[] = [];
  const pattern = /(`[^`]+`)|!\[([^\]]*)\]\(([^)\s]+)\)|\[([^\]]+)\]\(([^)\s]+)\)|\*\*([^*]+)\*\*|\*([^*]+)\*|(?<!\w)_([^_]+)_(?!\w)/g;
  let last = 0;
  let m: RegExpExecArray | null;
  let n = 0;
  while ((m = pattern.exec(text))) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const k = `${key}-${n++}`;
    if (m[1])
      out.push(
        <code key={k} className="rounded bg-gray-100 px-1">
          {m[1].slice(1, -1)}
        </code>,
      );
    else if (m[3] !== undefined) {
      out.push(SAFE_URL.test(m[3]) ? <img key={k} src={m[3]} alt={m[2]} className="inline-block max-h-64 max-w-full" /> : m[0]);
    } else if (m[5] !== undefined) {
      out.push(
        SAFE_URL.test(m[5]) ? (
          <a
            key={k}
            href={m[5]}
            className="text-brand-700 underline"
            {...(/^https?:/i.test(m[5]) ? { target: "_blank", rel: "noopener noreferrer" } : {})}
          >
            {inline(m[4], k)}
          </a>
        ) : (
          m[4]
        ),
      );
    } else if (m[6]) out.push(<strong key={k}>{inline(m[6], k)}</strong>);
    else out.push(<em key={k}>{inline(m[7] ?? m[8], k)}</em>);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

type Block =
  | { kind: "h"; level: number; text: string }
  | { kind: "p" | "quote"; lines: string[] }
  | { kind: "ul" | "ol"; items: string[] }
  | { kind: "hr" };

function blocks(source: string): Block[] {
  const out: Block[] = [];
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  for (const raw of lines) {
    const line = raw.trimEnd();
    const prev = out[out.length - 1];
    let m: RegExpMatchArray | null;
    if (!line.trim()) out.push({ kind: "p", lines: [] });
    else if ((m = line.match(/^(#{1,6})\s+(.*)$/))) out.push({ kind: "h", level: m[1].length, text: m[2] });
    else if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) out.push({ kind: "hr" });
    else if ((m = line.match(/^\s*[-*+]\s+(.*)$/))) prev?.kind === "ul" ? prev.items.push(m[1]) : out.push({ kind: "ul", items: [m[1]] });
    else if ((m = line.match(/^\s*\d+[.)]\s+(.*)$/))) prev?.kind === "ol" ? prev.items.push(m[1]) : out.push({ kind: "ol", items: [m[1]] });
    else if ((m = line.match(/^>\s?(.*)$/))) prev?.kind === "quote" ? prev.lines.push(m[1]) : out.push({ kind: "quote", lines: [m[1]] });
    else if (prev?.kind === "p" && prev.lines.length) prev.lines.push(line);
    else out.push({ kind: "p", lines: [line] });
  }
  return out.filter((b) => !((b.kind === "p" || b.kind === "quote") && !b.lines.length));
}

/**
 * Markdown where only phrasing content may stand (a question in a <legend>, an answer in a <label>): its
 * inline markup in a <span>, lines joined by a space and paragraphs by a line break; block syntax stays text.
 */
export function InlineMarkdown({ source }: { source: string }) {
  const paragraphs = source
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return (
    <span>
      {paragraphs.map((p, i) => (
        <Fragment key={i}>
          {i > 0 && <br />}
          {inline(p.replace(/\s*\n\s*/g, " "), `i${i}`)}
        </Fragment>
      ))}
    </span>
  );
}

/** Renders `source` as safe markdown; `className` styles the wrapper. */
export function Markdown({ source, className = "" }: { source: string; className?: string }) {
  return (
    <div className={`flex flex-col gap-3 ${className}`}>
      {blocks(source).map((b, i) => {
        const k = `b${i}`;
        switch (b.kind) {
          case "h": {
            const H = `h${Math.min(6, b.level + 1)}` as "h2";
            return (
              <H key={k} className={b.level <= 2 ? "text-xl font-semibold" : "text-lg font-semibold"}>
                {inline(b.text, k)}
              </H>
            );
          }
          case "hr":
            return <hr key={k} className="border-gray-200" />;
          case "ul":
          case "ol": {
            const L = b.kind;
            return (
              <L key={k} className={`${b.kind === "ul" ? "list-disc" : "list-decimal"} flex flex-col gap-1 pl-6`}>
                {b.items.map((item, j) => (
                  <li key={j}>{inline(item, `${k}-${j}`)}</li>
                ))}
              </L>
            );
          }
          case "quote":
            return (
              <blockquote key={k} className="border-l-4 border-gray-300 pl-3 text-gray-700">
                {b.lines.map((l, j) => (
                  <Fragment key={j}>
                    {j > 0 && <br />}
                    {inline(l, `${k}-${j}`)}
                  </Fragment>
                ))}
              </blockquote>
            );
          default:
            return (
              <p key={k}>
                {b.lines.map((l, j) => (
                  <Fragment key={j}>
                    {j > 0 && " "}
                    {inline(l, `${k}-${j}`)}
                  </Fragment>
                ))}
              </p>
            );
        }
      })}
    </div>
  );
}
