/** Keys the established platform keeps from volunteers: `#hidden` and `!private-until-retired` ones. */
export const isHiddenMetadataKey = (key: string) => key.startsWith("#") || key.startsWith("!");

/** The subject's metadata, hidden keys left out, web addresses as links. */
export function MetadataPanel({ metadata }: { metadata: Record<string, unknown> }) {
  const entries = Object.entries(metadata ?? {}).filter(([k]) => !isHiddenMetadataKey(k));
  if (!entries.length) return null;
  return (
    <details className="rounded border border-gray-200 bg-white p-2 text-sm">
      <summary className="cursor-pointer font-medium focus:outline focus:outline-2 focus:outline-brand-600">Subject metadata</summary>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1" aria-label="Subject metadata">
        {entries.map(([k, v]) => {
          const text = typeof v === "string" ? v : JSON.stringify(v);
          return (
            <div key={k} className="contents">
              <dt className="font-semibold text-gray-700">{k}</dt>
              <dd className="break-all">
                {/^https?:\/\/\S+$/.test(text) ? (
                  <a href={text} target="_blank" rel="noreferrer noopener" className="text-brand-700 underline">
                    {text}
                  </a>
                ) : (
                  text
                )}
              </dd>
            </div>
          );
        })}
      </dl>
    </details>
  );
}
