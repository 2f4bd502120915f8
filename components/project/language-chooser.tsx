"use client";
import { useEffect, useState } from "react";

const NAMES: Record<string, string> = { en: "English", fr: "Français", de: "Deutsch", es: "Español", it: "Italiano", nl: "Nederlands", pt: "Português", pl: "Polski", ru: "Русский", ja: "日本語", zh: "中文", "zh-cn": "中文（简体）", "zh-tw": "中文（繁體）", ar: "العربية", hi: "हिन्दी", sv: "Svenska", fi: "Suomi", cs: "Čeština", tr: "Türkçe" };

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
          document.cookie = `quorum_language=${encodeURIComponent(lang)}; path=/; max-age=31536000; samesite=lax`;
          const url = new URL(window.location.href);
          url.searchParams.set("language", lang);
          window.location.assign(url.toString());
        }}
      >
        {languages.map((l) => (
          <option key={l} value={l} lang={l}>
            {NAMES[l] ?? l}
          </option>
        ))}
      </select>
    </label>
  );
}
