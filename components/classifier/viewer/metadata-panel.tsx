/**
 * Keys the established platform keeps from volunteers: `#hidden` and `!private-until-retired` ones (their
 * first character after any leading space), and `//comment` ones.
 */
export const isHiddenMetadataKey = (key: string) => {
  const k = key.trimStart();
  return k.startsWith("#") || k.startsWith("!") || k.startsWith("//");
};

const shownEntries = (metadata: Record<string, unknown>) => Object.entries(metadata ?? {}).filter(([k]) => !isHiddenMetadataKey(k));

/** The subject's metadata as a list of names and values, hidden keys left out, web addresses as links. */
export function MetadataPanel({ metadata }: { metadata: Record<string, unknown> }) {
  const entries = shownEntries(metadata);
  if (!entries.length) return null;
  return (
    <details className="rounded border border-gray-200 bg-white p-2 text-sm">
      <summary className="cursor-pointer font-medium">Subject metadata</summary>
      <MetadataList entries={entries} label="Subject metadata" />
    </details>
  );
}

function MetadataList({ entries, label }: { entries: [string, unknown][]; label?: string }) {
  return (
    <dl className={`grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 ${label ? "mt-2" : ""}`} aria-label={label}>
      {entries.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className={label ? "font-semibold text-gray-700" : "text-gray-600"}>{k}</dt>
          <dd className="min-w-0 [overflow-wrap:anywhere]">
            <MetadataValue value={v} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** One value, readable: text and numbers as they are, a list of them joined, an object as a list of its own. */
function MetadataValue({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === "") return <span className="text-gray-500">none</span>;
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== "object")) return <>{value.map((v) => String(v ?? "none")).join(", ")}</>;
    return (
      <ul className="flex flex-col gap-1">
        {value.map((v, i) => (
          <li key={i}>
            <MetadataValue value={v} />
          </li>
        ))}
      </ul>
    );
  }
  if (typeof value === "object") return <MetadataList entries={shownEntries(value as Record<string, unknown>)} />;
  const text = String(value);
  return /^https?:\/\/\S+$/.test(text) ? (
    <a href={text} target="_blank" rel="noreferrer noopener" className="text-brand-700 underline">
      {text}
    </a>
  ) : (
    text
  );
}
