"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiGet, apiPost, apiPutFresh } from "@/components/ui/api-client";
import { buttonClass, inputClass, Select } from "@/components/ui/controls";
import { Markdown } from "@/components/ui/markdown";
import { Panel } from "@/components/ui/panel";
import { QueryState } from "@/components/ui/query-state";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { LANGUAGE_NAMES } from "@/lib/i18n/language-names";
import type { TranslatedType } from "@/lib/i18n/strings";
import { type KeyStatus, languageChoices, parseLanguage, translationBody, translationRows } from "@/lib/lab/translation-editing";
import type {
  FieldGuideRecord,
  ProjectPageRecord,
  ProjectRecord,
  Records,
  TranslationRecord,
  TutorialRecord,
  WorkflowRecord,
} from "@/components/ui/wire-types";
import { Alert } from "@/components/ui/alert";

interface Target {
  value: string;
  label: string;
  /** The record's own language: its translation there is the record itself. */
  language: string;
}

const languageLabel = (code: string) => (LANGUAGE_NAMES[code] ? `${LANGUAGE_NAMES[code]} (${code})` : code);

/** The records of the project a translator may translate: the project, its workflows, tutorials, field guide and about pages. */
function useTargets(projectId: number, primary: string) {
  return useQuery({
    queryKey: ["lab-translation-targets", projectId, primary],
    queryFn: async (): Promise<{ project: ProjectRecord; targets: Target[] }> => {
      const lang = encodeURIComponent(primary);
      const [projects, workflows, tutorials, guides, pages] = await Promise.all([
        apiGet<Records<"projects", ProjectRecord>>(`/projects/${projectId}`),
        apiGet<Records<"workflows", WorkflowRecord>>(`/workflows?project_id=${projectId}&page_size=100`),
        apiGet<Records<"tutorials", TutorialRecord>>(`/tutorials?project_id=${projectId}&language=${lang}&page_size=100`),
        apiGet<Records<"field_guides", FieldGuideRecord>>(`/field_guides?project_id=${projectId}&language=${lang}`),
        apiGet<Records<"project_pages", ProjectPageRecord>>(`/projects/${projectId}/pages?language=${lang}&page_size=100`),
      ]);
      const project = projects.projects[0];
      return {
        project,
        targets: [
          { value: `project:${project.id}`, label: `Project: ${project.display_name}`, language: project.primary_language },
          ...workflows.workflows.map((w) => ({
            value: `workflow:${w.id}`,
            label: `Workflow: ${w.display_name}`,
            language: w.primary_language ?? primary,
          })),
          ...tutorials.tutorials.map((t) => ({
            value: `tutorial:${t.id}`,
            label: `${t.kind === "mini-course" ? "Mini-course" : "Tutorial"}: ${t.display_name || `#${t.id}`}`,
            language: t.language ?? primary,
          })),
          ...guides.field_guides.map((g) => ({ value: `field_guide:${g.id}`, label: "Field guide", language: g.language ?? primary })),
          ...pages.project_pages.map((p) => ({
            value: `project_page:${p.id}`,
            label: `About page: ${p.title || p.url_key}`,
            language: p.language,
          })),
        ],
      };
    },
    staleTime: 0,
  });
}

/**
 * Translations of the project's records: choose a record and a language (the project's languages, those
 * translated already, or one added by its code), then edit its strings key by key beside the primary text.
 */
export function TranslationsEditor({ projectId, primaryLanguage }: { projectId: number; primaryLanguage: string }) {
  const found = useTargets(projectId, primaryLanguage);
  const [target, setTarget] = useState("");
  const [language, setLanguage] = useState("");
  const [added, setAdded] = useState<string[]>([]);
  const [newCode, setNewCode] = useState("");
  const [codeError, setCodeError] = useState("");
  const chosen = target || found.data?.targets[0]?.value || "";
  const [type, id] = chosen.split(":") as [TranslatedType, string];
  const recordLanguage = (found.data?.targets.find((t) => t.value === chosen)?.language ?? primaryLanguage).toLowerCase();
  const translations = useQuery({
    queryKey: ["lab-translations", type, id],
    enabled: !!id,
    queryFn: async () =>
      (await apiGet<Records<"translations", TranslationRecord>>(`/translations?translated_type=${type}&translated_id=${id}&page_size=100`))
        .translations,
    staleTime: 0,
  });
  const project = found.data?.project;
  const translated = translations.data?.map((t) => t.language ?? "") ?? [];
  // The project's languages: its available_languages, and configuration.languages where the established front end keeps them.
  const configured = project?.configuration?.languages;
  const languages = languageChoices(
    recordLanguage,
    project?.available_languages ?? [],
    Array.isArray(configured) ? configured.filter((l): l is string => typeof l === "string") : [],
    translated,
    added,
  );
  const lang = language && languages.includes(language) ? language : (languages[0] ?? "");
  const primary = translations.data?.find((t) => t.language?.toLowerCase() === recordLanguage);
  const current = translations.data?.find((t) => t.language === lang) ?? null;

  const addLanguage = () => {
    const parsed = parseLanguage(newCode, recordLanguage);
    if ("error" in parsed) {
      setCodeError(parsed.error);
      return;
    }
    setCodeError("");
    setAdded((a) => [...a, parsed.language]);
    setLanguage(parsed.language);
    setNewCode("");
  };

  return (
    <Panel id="translations-heading" title="Translations">
      <p className="text-sm text-gray-600">
        Volunteers who choose another language on the classify page see these texts instead of the project&apos;s primary language (
        {languageLabel(primaryLanguage)}), which is edited in the records themselves.
      </p>
      <QueryState query={found} what="project's records">
        <div className="grid gap-3 sm:grid-cols-2">
          <Select label="Record" value={chosen} options={found.data?.targets ?? []} onChange={setTarget} />
          {languages.length ? (
            <Select
              label="Language"
              value={lang}
              options={languages.map((l) => ({ value: l, label: languageLabel(l) }))}
              onChange={setLanguage}
            />
          ) : (
            <p className="text-sm text-gray-600">No other language yet: add one below.</p>
          )}
        </div>
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            addLanguage();
          }}
        >
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium">Add a language (code)</span>
            <input
              className={inputClass}
              value={newCode}
              placeholder="fr"
              aria-invalid={codeError ? true : undefined}
              aria-describedby={codeError ? "new-language-error" : undefined}
              onChange={(e) => setNewCode(e.target.value)}
            />
          </label>
          <button type="submit" className={buttonClass}>
            Add language
          </button>
          {codeError && (
            <Alert id="new-language-error" inline className="w-full">
              {codeError}
            </Alert>
          )}
        </form>
      </QueryState>
      {id && lang && (
        <QueryState query={translations} what="translations">
          {primary && (
            <TranslationForm
              // One form per record and language: a save keeps it (and its message), the drafts saved
              // are dropped once the saved translation has been read back.
              key={`${chosen}-${lang}`}
              type={type}
              id={id}
              language={lang}
              primary={primary.strings}
              current={current}
              onSaved={() => translations.refetch()}
            />
          )}
          {!primary && <p className="text-sm text-gray-600">This record has no text to translate.</p>}
        </QueryState>
      )}
    </Panel>
  );
}

const STATUS_TEXT: Record<KeyStatus, string> = { missing: "Missing", outdated: "Outdated", translated: "Translated" };
const STATUS_CLASS: Record<KeyStatus, string> = {
  missing: "bg-amber-100 text-amber-900",
  outdated: "bg-orange-100 text-orange-900",
  translated: "bg-green-100 text-green-900",
};

/** One record's strings in one language: the primary text, the translation, its state; saved together. */
function TranslationForm({
  type,
  id,
  language,
  primary,
  current,
  onSaved,
}: {
  type: TranslatedType;
  id: string;
  language: string;
  primary: Record<string, string>;
  current: TranslationRecord | null;
  onSaved(): Promise<unknown>;
}) {
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const { busy, outcome, run } = useAction();
  const saved = current?.strings ?? {};
  const versions = current?.string_versions ?? {};
  const rows = translationRows(primary, saved, versions, drafts);
  if (!rows.length) return <p className="text-sm text-gray-600">This record has no text to translate.</p>;
  const missing = rows.filter((r) => r.status === "missing").length;
  const outdated = rows.filter((r) => r.status === "outdated").length;
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        void run(async () => {
          const body = translationBody(primary, saved, versions, drafts);
          if (current) await apiPutFresh(`/translations/${current.id}`, { translations: body });
          else await apiPost("/translations", { translations: { translated_type: type, translated_id: id, language, ...body } });
          await onSaved();
          setDrafts({});
          return `The ${languageLabel(language)} translation was saved.`;
        });
      }}
    >
      <p className="text-sm" role="status">
        {rows.length} texts: {missing} missing, {outdated} outdated{current ? "" : " (not saved yet)"}.
      </p>
      <ol className="flex flex-col gap-4">
        {rows.map((row, i) => {
          const fieldId = `translation-${i}`;
          return (
            <li key={row.key} className="flex flex-col gap-2 rounded border border-gray-200 p-3" data-testid="translation-key">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <code className="break-all text-xs text-gray-700">{row.key}</code>
                <span className={`rounded px-2 py-0.5 text-xs font-medium ${STATUS_CLASS[row.status]}`}>{STATUS_TEXT[row.status]}</span>
              </div>
              <div className="grid gap-3 md:grid-cols-2">
                <div className="flex flex-col gap-1 text-sm">
                  <span className="font-medium">Primary text</span>
                  <div className="max-h-48 overflow-y-auto rounded bg-gray-50 p-2" id={`${fieldId}-primary`}>
                    {row.markdown ? <Markdown source={row.primary} /> : <p className="break-words">{row.primary}</p>}
                  </div>
                </div>
                <div className="flex flex-col gap-1 text-sm">
                  <label htmlFor={fieldId} className="font-medium">
                    {languageLabel(language)}: {row.key}
                  </label>
                  {row.markdown ? (
                    <textarea
                      id={fieldId}
                      className={inputClass}
                      rows={4}
                      value={row.text}
                      aria-describedby={`${fieldId}-primary`}
                      onChange={(e) => setDrafts((d) => ({ ...d, [row.key]: e.target.value }))}
                    />
                  ) : (
                    <input
                      id={fieldId}
                      className={inputClass}
                      value={row.text}
                      aria-describedby={`${fieldId}-primary`}
                      onChange={(e) => setDrafts((d) => ({ ...d, [row.key]: e.target.value }))}
                    />
                  )}
                  {row.markdown && row.text.trim() && (
                    <details>
                      <summary className="cursor-pointer text-xs text-gray-600">Preview</summary>
                      <div className="rounded border border-gray-200 p-2">
                        <Markdown source={row.text} />
                      </div>
                    </details>
                  )}
                </div>
              </div>
            </li>
          );
        })}
      </ol>
      <button type="submit" disabled={busy} className={`${buttonClass} self-start bg-brand-600 text-white hover:bg-brand-700`}>
        {busy ? "Saving…" : "Save translation"}
      </button>
      <StatusMessage outcome={outcome} />
    </form>
  );
}
