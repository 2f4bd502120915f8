import type { ReactNode } from "react";

/**
 * A small subset of markdown (paragraphs, line breaks, **bold**, *italic*, [links](https://…)) rendered as
 * React elements: text is never parsed as HTML, so a field guide cannot inject markup or scripts.
 */
export function SafeMarkdown({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/\n{2,}/)
        .filter((p) => p.trim())
        .map((p, i) => (
          <p key={i} className="mb-2 last:mb-0">
            {p.split("\n").flatMap((line, j) => (j ? [<br key={`br${j}`} />, ...inline(line, `${j}`)] : inline(line, `${j}`)))}
          </p>
        ))}
    </>
  );
}

function inline(s: string, key: string): ReactNode[] {
  const out: ReactNode[] = [];
  const re = /\*\*(.+?)\*\*|\*(.+?)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s))) {
    if (m.index > last) out.push(s.slice(last, m.index));
    const k = `${key}-${m.index}`;
    if (m[1] !== undefined) out.push(<strong key={k}>{m[1]}</strong>);
    else if (m[2] !== undefined) out.push(<em key={k}>{m[2]}</em>);
    else if (/^https?:\/\//i.test(m[4]))
      out.push(
        <a key={k} href={m[4]} target="_blank" rel="noopener noreferrer" className="text-brand-700 underline">
          {m[3]}
        </a>,
      );
    else out.push(m[3]);
    last = re.lastIndex;
  }
  if (last < s.length) out.push(s.slice(last));
  return out;
}
