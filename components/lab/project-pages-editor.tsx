"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiDeleteFresh, apiGet, apiPost, apiPutFresh } from "@/components/ui/api-client";
import { Field } from "@/components/ui/field";
import { LANGUAGE_NAMES } from "@/lib/i18n/language-names";
import { useLabProject } from "./project-details-form";
import { QueryState } from "@/components/ui/query-state";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { Panel } from "@/components/ui/panel";
import { buttonClass, primaryButtonClass } from "@/components/ui/controls";
import type { ProjectPageRecord, Records } from "@/components/ui/wire-types";

/** The about pages the project page shows, in its order, by the established front end's keys. */
const PAGES: [key: string, title: string][] = [
  ["science_case", "Research"],
  ["team", "Team"],
  ["results", "Results"],
  ["education", "Education"],
  ["faq", "FAQ"],
];

/** About pages per language: pick a page and a language, edit its title and Markdown, save or remove it. */
export function ProjectPagesEditor({ projectId }: { projectId: number }) {
  const project = useLabProject(projectId);
  const [key, setKey] = useState(PAGES[0][0]);
  const [language, setLanguage] = useState<string | null>(null);
  const lang = language ?? project.data?.primary_language ?? "en";
  const pages = useQuery({
    queryKey: ["lab-project-pages", projectId, lang],
    queryFn: async () =>
      (
        await apiGet<Records<"project_pages", ProjectPageRecord>>(
          `/projects/${projectId}/pages?language=${encodeURIComponent(lang)}&page_size=100`,
        )
      ).project_pages,
    staleTime: 0,
  });
  const page = pages.data?.find((p) => p.url_key === key) ?? null;
  const { busy, outcome: status, run: act } = useAction();

  const languages = project.data ? [...new Set([project.data.primary_language, ...project.data.available_languages])] : [lang];
  const run = (what: () => Promise<unknown>, done: string) =>
    act(async () => {
      await what();
      await pages.refetch();
      return done;
    });

  return (
    <Panel id="pages-heading" title="About pages">
      <div className="flex flex-wrap gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor="about-page" className="text-sm font-medium">
            Page
          </label>
          <select id="about-page" className="rounded border border-gray-300 px-3 py-2" value={key} onChange={(e) => setKey(e.target.value)}>
            {PAGES.map(([k, t]) => (
              <option key={k} value={k}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="about-language" className="text-sm font-medium">
            Language
          </label>
          <select
            id="about-language"
            className="rounded border border-gray-300 px-3 py-2"
            value={lang}
            onChange={(e) => setLanguage(e.target.value)}
          >
            {languages.map((l) => (
              <option key={l} value={l}>
                {LANGUAGE_NAMES[l] ?? l} ({l})
              </option>
            ))}
          </select>
        </div>
      </div>
      <QueryState query={pages} what="page">
        <PageForm
          key={`${key}:${lang}:${page?.id ?? "new"}`}
          page={page}
          defaultTitle={PAGES.find(([k]) => k === key)![1]}
          busy={busy}
          onSave={(title, content) =>
            run(
              () =>
                page
                  ? apiPutFresh(`/projects/${projectId}/pages/${page.id}`, { project_pages: { title, content } })
                  : apiPost(`/projects/${projectId}/pages`, { project_pages: { url_key: key, language: lang, title, content } }),
              "Page saved.",
            )
          }
          onRemove={() => page && run(() => apiDeleteFresh(`/projects/${projectId}/pages/${page.id}`), "Page removed.")}
        />
      </QueryState>
      <StatusMessage outcome={status} />
    </Panel>
  );
}

/** One page in one language: its title and Markdown, started from the saved page (or none yet: its default title). */
function PageForm({
  page,
  defaultTitle,
  busy,
  onSave,
  onRemove,
}: {
  page: ProjectPageRecord | null;
  defaultTitle: string;
  busy: boolean;
  onSave(title: string, content: string): void;
  onRemove(): void;
}) {
  const [title, setTitle] = useState(page?.title ?? defaultTitle);
  const [content, setContent] = useState(page?.content ?? "");
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        onSave(title, content);
      }}
    >
      <p className="text-sm text-gray-600">{page ? "Editing the saved page." : "This page does not exist yet in this language."}</p>
      <Field id="about-title" label="Page title" value={title} onChange={setTitle} />
      <div className="flex flex-col gap-1">
        <label htmlFor="about-content" className="text-sm font-medium">
          Page content (Markdown)
        </label>
        <textarea
          id="about-content"
          rows={8}
          className="rounded border border-gray-300 px-3 py-2 font-mono text-sm"
          value={content}
          onChange={(e) => setContent(e.target.value)}
        />
      </div>
      <div className="flex gap-2">
        <button type="submit" disabled={busy} className={primaryButtonClass}>
          Save page
        </button>
        {page && (
          <button type="button" disabled={busy} className={buttonClass} onClick={onRemove}>
            Remove page
          </button>
        )}
      </div>
    </form>
  );
}
