"use client";
import { useEffect, useState } from "react";
import { LANGUAGE_NAMES } from "@/lib/i18n/language-names";

/**
 * Chooses the language a project is read in: remembered (cookie) and in the address. The page is loaded
 * anew in the language (its texts are rendered on the server).
 */
export function LanguageChooser({ languages, current }: { languages: string[]; current: string }) {
  // Enabled once its handler is attached (it arrives in a chunk of its own after the page).
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  if (languages.length < 2) return null;
  return (
    <label className="flex items-center gap-2 text-sm">
      <span>Language</span>
      <select
        value={current}
        disabled={!ready}
        className="rounded border border-gray-300 bg-white px-2 py-1 focus:outline focus:outline-2 focus:outline-brand-600"
        onChange={(e) => {
          const lang = e.target.value;
          // biome-ignore lint/suspicious/noDocumentCookie: the server reads it on the next page; not every browser has the Cookie Store API
          document.cookie = `quorum_language=${encodeURIComponent(lang)}; path=/; max-age=31536000; samesite=lax`;
          const url = new URL(window.location.href);
          url.searchParams.set("language", lang);
          window.location.assign(url.toString());
        }}
      >
        {languages.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l] ?? l}
          </option>
        ))}
      </select>
    </label>
  );
}
