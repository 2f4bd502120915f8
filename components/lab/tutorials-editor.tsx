"use client";
import { useUploadUrl } from "@/components/ui/upload-url-context";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiDeleteFresh, apiGet, apiPost, apiPutFresh } from "@/components/ui/api-client";
import { buttonClass, Check, Select, TextBox, TextInput } from "@/components/ui/controls";
import { Panel } from "@/components/ui/panel";
import { QueryState } from "@/components/ui/query-state";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { type AttachedImage, useAttachedImages } from "@/components/classifier/help/attached-images";
import { TutorialStepView } from "@/components/classifier/help/help-content";
import { type StepDraft, stepsBody, stepsFromRecord, toggleWorkflow } from "@/lib/lab/onboarding-editing";
import { AttachedImageField, EditorFooter, EntryControls, focusSoon, useEntries, useUploads } from "./onboarding-parts";
import type { Records, TutorialRecord } from "@/components/ui/wire-types";

type Kind = "tutorial" | "mini-course";
const NAMES: Record<Kind, { one: string; many: string }> = {
  tutorial: { one: "tutorial", many: "Tutorials" },
  "mini-course": { one: "mini-course", many: "Mini-courses" },
};
const HINTS: Record<Kind, string> = {
  tutorial: "Shown to volunteers when they first open a linked workflow, and from its Tutorial button.",
  "mini-course": "Offered to volunteers one lesson at a time, every few classifications, in the linked workflows.",
};

/** A project's tutorials (or mini-courses) in its primary language: pick one or create one, then edit it. */
export function TutorialsEditor({
  projectId,
  language,
  kind,
  workflows,
}: {
  projectId: number;
  language: string;
  kind: Kind;
  workflows: { id: string; name: string }[];
}) {
  const name = NAMES[kind];
  const list = useQuery({
    queryKey: ["lab-tutorials", projectId, kind, language],
    queryFn: async () =>
      (
        await apiGet<Records<"tutorials", TutorialRecord>>(
          `/tutorials?project_id=${projectId}&kind=${kind}&language=${encodeURIComponent(language)}&page_size=100&sort=id`,
        )
      ).tutorials,
    staleTime: 0,
  });
  const [chosen, setChosen] = useState<string | null>(null);
  const [newName, setNewName] = useState("");
  const action = useAction();
  const { busy, outcome, run } = action;
  const current = list.data?.find((t) => t.id === chosen) ?? list.data?.[0] ?? null;
  const prefix = kind === "tutorial" ? "tutorial" : "course";

  return (
    <Panel id={`${prefix}-heading`} title={name.many}>
      <p className="text-sm text-gray-600">{HINTS[kind]}</p>
      <QueryState query={list} what={`${name.one}s`}>
        {list.data && list.data.length > 1 && (
          <Select
            label={`The ${name.one} to edit`}
            value={current?.id ?? ""}
            options={list.data.map((t) => ({ value: t.id, label: t.display_name || `${name.one} ${t.id}` }))}
            onChange={setChosen}
          />
        )}
        {current ? (
          <TutorialForm
            key={`${current.id}-${current.updated_at ?? ""}`}
            record={current}
            kind={kind}
            prefix={prefix}
            workflows={workflows}
            action={action}
            onChanged={async (gone) => {
              if (gone) setChosen(null);
              await list.refetch();
            }}
          />
        ) : (
          <p className="text-sm text-gray-600">This project has no {name.one} yet.</p>
        )}
      </QueryState>
      <form
        className="flex flex-wrap items-end gap-2 border-t border-gray-200 pt-3"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const created = await apiPost<Records<"tutorials", TutorialRecord>>("/tutorials", {
              tutorials: { display_name: newName.trim(), kind, language, steps: [{ content: "" }], links: { project: String(projectId) } },
            });
            setNewName("");
            setChosen(created.tutorials[0].id);
            await list.refetch();
            return `The ${name.one} was created.`;
          });
        }}
      >
        <TextInput label={`New ${name.one}'s name`} value={newName} onChange={setNewName} className="min-w-0 grow" />
        <button type="submit" disabled={busy} className={buttonClass}>
          Create {name.one}
        </button>
      </form>
      <StatusMessage outcome={outcome} busy={busy} />
    </Panel>
  );
}

function TutorialForm({
  record,
  kind,
  prefix,
  workflows,
  action,
  onChanged,
}: {
  record: TutorialRecord;
  kind: Kind;
  prefix: string;
  workflows: { id: string; name: string }[];
  /** The panel's action, so its outcome outlives this form (which is remade from the saved record). */
  action: ReturnType<typeof useAction>;
  onChanged(gone: boolean): Promise<void>;
}) {
  const name = NAMES[kind];
  const local = useUploadUrl();
  const [saved] = useState(() => stepsFromRecord(record.steps));
  const [displayName, setDisplayName] = useState(record.display_name ?? "");
  const list = useEntries(saved);
  const [linked, setLinked] = useState<string[]>(record.links?.workflows ?? []);
  const [shown, setShown] = useState(0);
  const images = useAttachedImages("tutorials", record.id, true, 0);
  const { busy, run } = action;
  const base = `/tutorials/${record.id}`;
  const steps = list.entries;
  const uploads = useUploads(
    `tutorials/${record.id}`,
    steps.map((s) => s.media),
  );
  const preview = Math.min(shown, Math.max(0, steps.length - 1));

  const save = () =>
    run(async () => {
      await apiPutFresh(base, { tutorials: { display_name: displayName.trim(), steps: stepsBody(steps), links: { workflows: linked } } });
      // Images no saved step uses go: replaced, removed, uploaded and abandoned.
      const left = await uploads.sweep(
        steps.map((s) => s.media),
        steps.map((s) => s.content),
      );
      await onChanged(false);
      return `The ${name.one} was saved.${left}`;
    });

  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]">
      <form
        className="flex min-w-0 flex-col gap-3"
        aria-label={`Edit the ${name.one}`}
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <TextInput label={`${kind === "tutorial" ? "Tutorial" : "Mini-course"} name`} value={displayName} onChange={setDisplayName} />
        <ol className="flex flex-col gap-3">
          {list.rows.map((r, i) => (
            <li key={r.key}>
              <fieldset className="flex min-w-0 flex-col gap-2 rounded border border-gray-200 p-3">
                <legend className="px-1 text-sm font-semibold">Step {i + 1}</legend>
                <TextBox
                  label={`Step ${i + 1} content (Markdown)`}
                  rows={4}
                  value={r.entry.content}
                  onChange={(v) => list.set(i, { ...r.entry, content: v })}
                />
                <AttachedImageField
                  id={`${prefix}-step-${r.key}-image`}
                  label={`Step ${i + 1} image`}
                  medium={r.entry.media}
                  image={r.entry.media ? images.data?.get(r.entry.media) : undefined}
                  busy={busy}
                  onUpload={(file) =>
                    void run(async () => {
                      const media = await uploads.upload(file, local);
                      await images.refetch();
                      list.update(r.key, (step) => ({ ...step, media }));
                      setShown(i);
                      return `Image added to step ${i + 1}; save the ${name.one} to keep it.`;
                    })
                  }
                  onRemove={() => list.set(i, { content: r.entry.content })}
                />
                <EntryControls
                  idPrefix={`${prefix}-step`}
                  index={i}
                  count={list.rows.length}
                  what={`step ${i + 1}`}
                  onMove={(to) => list.move(i, to)}
                  onRemove={() => {
                    list.remove(i);
                    focusSoon(`${prefix}-add-step`);
                  }}
                />
              </fieldset>
            </li>
          ))}
        </ol>
        <button
          id={`${prefix}-add-step`}
          type="button"
          className={`${buttonClass} self-start`}
          onClick={() => {
            list.add({ content: "" });
            setShown(list.rows.length);
          }}
        >
          Add a step
        </button>
        <fieldset className="flex flex-col gap-1 rounded border border-gray-200 p-3">
          <legend className="px-1 text-sm font-semibold">Workflows that show it</legend>
          {workflows.length ? (
            workflows.map((w) => (
              <Check
                key={w.id}
                label={w.name}
                checked={linked.includes(w.id)}
                onChange={(on) => setLinked((l) => toggleWorkflow(l, w.id, on))}
              />
            ))
          ) : (
            <p className="text-sm text-gray-600">The project has no workflows yet.</p>
          )}
        </fieldset>
        <EditorFooter
          what={name.one}
          busy={busy}
          problem={uploads.problem}
          onDiscard={() => {
            setDisplayName(record.display_name ?? "");
            list.discard();
            setLinked(record.links?.workflows ?? []);
          }}
          onDelete={() =>
            void run(async () => {
              await apiDeleteFresh(base);
              await onChanged(true);
              return `The ${name.one} was deleted.`;
            })
          }
        />
      </form>
      <TutorialPreview
        prefix={prefix}
        kind={kind}
        name={displayName}
        steps={steps}
        images={images.data}
        shown={preview}
        onShow={setShown}
      />
    </div>
  );
}

/** What volunteers see of the tutorial being edited, a step at a time (`shown`). */
function TutorialPreview({
  prefix,
  kind,
  name,
  steps,
  images,
  shown,
  onShow,
}: {
  prefix: string;
  kind: Kind;
  name: string;
  steps: StepDraft[];
  images: Map<string, AttachedImage> | undefined;
  shown: number;
  onShow(step: number): void;
}) {
  return (
    <section
      aria-labelledby={`${prefix}-preview`}
      className="flex min-w-0 flex-col gap-3 self-start rounded-lg border border-gray-200 bg-gray-50 p-4"
    >
      <h3 id={`${prefix}-preview`} className="text-sm font-semibold text-gray-700">
        Preview: what volunteers see
      </h3>
      <div className="flex flex-col gap-3 rounded-lg border border-gray-200 bg-white p-4 shadow-sm" data-testid={`${prefix}-preview`}>
        <p className="text-lg font-semibold">{name.trim() || (kind === "tutorial" ? "Tutorial" : "Mini-course")}</p>
        {steps.length ? (
          <>
            <p className="text-sm text-gray-600">
              {kind === "tutorial" ? "Step" : "Lesson"} {shown + 1} of {steps.length}
            </p>
            <TutorialStepView step={steps[shown]} images={images} />
            <div className="flex justify-between gap-2">
              <button type="button" className={buttonClass} disabled={shown === 0} onClick={() => onShow(shown - 1)}>
                Previous<span className="sr-only"> step in the preview</span>
              </button>
              <button type="button" className={buttonClass} disabled={shown >= steps.length - 1} onClick={() => onShow(shown + 1)}>
                Next<span className="sr-only"> step in the preview</span>
              </button>
            </div>
          </>
        ) : (
          <p className="text-sm text-gray-600">No steps: volunteers are shown nothing.</p>
        )}
      </div>
    </section>
  );
}
