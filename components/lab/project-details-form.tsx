"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiGet, apiPutFresh } from "@/components/ui/api-client";
import { Field } from "@/components/ui/field";
import { LANGUAGE_NAMES } from "@/lib/i18n/language-names";
import { DISCIPLINES } from "@/components/project/disciplines";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { buttonClass, primaryButtonClass } from "@/components/ui/controls";
import { QueryState } from "@/components/ui/query-state";
import type { ProjectRecord, Records } from "@/components/ui/wire-types";

export const projectQueryKey = (id: number) => ["lab-project", id];

export function useLabProject(projectId: number) {
  return useQuery({
    queryKey: projectQueryKey(projectId),
    queryFn: async () => (await apiGet<Records<"projects", ProjectRecord>>(`/projects/${projectId}`)).projects[0],
    staleTime: 0,
  });
}

interface Draft {
  display_name: string;
  description: string;
  introduction: string;
  researcher_quote: string;
  workflow_description: string;
  primary_language: string;
  languages: string;
  discipline: string;
  tags: string;
  urls: { label: string; url: string }[];
}

function draftOf(p: ProjectRecord): Draft {
  const discipline = DISCIPLINES.find((d) => p.tags.includes(d.toLowerCase())) ?? "";
  return {
    display_name: p.display_name,
    description: p.description ?? "",
    introduction: p.introduction ?? "",
    researcher_quote: p.researcher_quote ?? "",
    workflow_description: p.workflow_description ?? "",
    primary_language: p.primary_language,
    languages: p.available_languages.filter((l) => l !== p.primary_language).join(", "),
    discipline,
    tags: p.tags.filter((t) => t !== discipline.toLowerCase()).join(", "),
    urls: p.urls.map((u) => ({ label: u.label ?? "", url: u.url })),
  };
}

const list = (s: string) => [
  ...new Set(
    s
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean),
  ),
];

function TextArea({
  id,
  label,
  hint,
  value,
  onChange,
  rows = 4,
}: {
  id: string;
  label: string;
  hint?: string;
  value: string;
  onChange: (v: string) => void;
  rows?: number;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-gray-600">
          {hint}
        </p>
      )}
      <textarea
        id={id}
        rows={rows}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className="rounded border border-gray-300 px-3 py-2"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

/** Every text and setting of a project the team edits: names and texts, discipline and tags, links, languages (visibility and review requests are the launch stepper's, components/lab/launch-stepper.tsx). */
export function ProjectDetailsForm({ projectId }: { projectId: number }) {
  const project = useLabProject(projectId);
  return (
    <QueryState query={project} what="project">
      {project.data && <DetailsForm key={project.data.id} project={project.data} />}
    </QueryState>
  );
}

/** The form, its draft started from the project (`project`); a save sets both from the server's answer. */
function DetailsForm({ project: p }: { project: ProjectRecord }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(p));
  const { busy, outcome: status, run } = useAction();
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft({ ...draft, [key]: value });

  return (
    <form
      className="flex flex-col gap-4 rounded-lg border border-gray-200 bg-white p-4"
      onSubmit={(e) => {
        e.preventDefault();
        void run(async () => {
          const saved = await apiPutFresh<Records<"projects", ProjectRecord>>(`/projects/${p.id}`, { projects: projectBody(draft) });
          queryClient.setQueryData(projectQueryKey(Number(p.id)), saved.projects[0]);
          setDraft(draftOf(saved.projects[0]));
          return "Saved.";
        });
      }}
    >
      <h2 className="text-lg font-semibold">Texts</h2>
      <Field
        id="details-name"
        label="Project name"
        required
        maxLength={255}
        value={draft.display_name}
        onChange={(v) => set("display_name", v)}
      />
      <Field id="details-description" label="Short description" value={draft.description} onChange={(v) => set("description", v)} />
      <TextArea
        id="details-introduction"
        label="Introduction"
        hint="Shown on the project's front page; Markdown."
        rows={6}
        value={draft.introduction}
        onChange={(v) => set("introduction", v)}
      />
      <TextArea
        id="details-workflow-description"
        label="Call to action"
        hint="A sentence above the workflows on the front page."
        rows={2}
        value={draft.workflow_description}
        onChange={(v) => set("workflow_description", v)}
      />
      <TextArea
        id="details-quote"
        label="Researcher quote"
        rows={2}
        value={draft.researcher_quote}
        onChange={(v) => set("researcher_quote", v)}
      />

      <h2 className="text-lg font-semibold">Discipline and tags</h2>
      <div className="flex flex-col gap-1">
        <label htmlFor="details-discipline" className="text-sm font-medium">
          Discipline
        </label>
        <select
          id="details-discipline"
          className="rounded border border-gray-300 px-3 py-2"
          value={draft.discipline}
          onChange={(e) => set("discipline", e.target.value)}
        >
          <option value="">None</option>
          {DISCIPLINES.map((d) => (
            <option key={d}>{d}</option>
          ))}
        </select>
      </div>
      <Field id="details-tags" label="Tags (comma-separated)" value={draft.tags} onChange={(v) => set("tags", v)} />

      <LinksFieldset urls={draft.urls} onChange={(urls) => set("urls", urls)} />

      <h2 className="text-lg font-semibold">Languages</h2>
      <div className="flex flex-col gap-1">
        <label htmlFor="details-primary-language" className="text-sm font-medium">
          Primary language
        </label>
        <select
          id="details-primary-language"
          className="rounded border border-gray-300 px-3 py-2"
          value={draft.primary_language}
          onChange={(e) => set("primary_language", e.target.value)}
        >
          {[...new Set([draft.primary_language, ...Object.keys(LANGUAGE_NAMES)])].map((code) => (
            <option key={code} value={code}>
              {LANGUAGE_NAMES[code] ?? code} ({code})
            </option>
          ))}
        </select>
      </div>
      <Field
        id="details-languages"
        label="Other languages volunteers may choose (codes, comma-separated)"
        value={draft.languages}
        onChange={(v) => set("languages", v)}
      />

      <StatusMessage outcome={status} />
      <button type="submit" disabled={busy} className={`self-start ${primaryButtonClass}`}>
        {busy ? "Saving…" : "Save project"}
      </button>
    </form>
  );
}

/** What a save sends: languages with the primary first, the discipline as the first tag, links with an address. */
function projectBody(draft: Draft) {
  const languages = [draft.primary_language, ...list(draft.languages).filter((l) => l !== draft.primary_language)];
  const tags = [...(draft.discipline ? [draft.discipline.toLowerCase()] : []), ...list(draft.tags).map((t) => t.toLowerCase())];
  return {
    display_name: draft.display_name,
    description: draft.description,
    introduction: draft.introduction,
    researcher_quote: draft.researcher_quote,
    workflow_description: draft.workflow_description,
    primary_language: draft.primary_language,
    available_languages: languages,
    tags: [...new Set(tags)],
    urls: draft.urls.filter((u) => u.url.trim()).map((u) => ({ label: u.label.trim() || null, url: u.url.trim() })),
  };
}

type Url = Draft["urls"][number];

/** The project's links: a label and an address each, removed and added. */
function LinksFieldset({ urls, onChange }: { urls: Url[]; onChange(urls: Url[]): void }) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-lg font-semibold">Links</legend>
      {urls.map((u, i) => (
        <div key={i} className="flex flex-wrap items-end gap-2">
          <Field
            id={`details-url-label-${i}`}
            label={`Link ${i + 1} label`}
            value={u.label}
            onChange={(v) => onChange(urls.map((x, j) => (j === i ? { ...x, label: v } : x)))}
          />
          <Field
            id={`details-url-${i}`}
            label={`Link ${i + 1} address`}
            type="url"
            required
            value={u.url}
            onChange={(v) => onChange(urls.map((x, j) => (j === i ? { ...x, url: v } : x)))}
          />
          <button type="button" className={buttonClass} onClick={() => onChange(urls.filter((_, j) => j !== i))}>
            Remove link {i + 1}
          </button>
        </div>
      ))}
      <button type="button" className={`${buttonClass} self-start`} onClick={() => onChange([...urls, { label: "", url: "" }])}>
        Add a link
      </button>
    </fieldset>
  );
}
