"use client";
import { useUploadUrl } from "@/components/ui/upload-url-context";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiDeleteFresh, apiGet, apiPost, apiPutFresh } from "@/components/ui/api-client";
import { buttonClass, TextBox, TextInput } from "@/components/ui/controls";
import { Panel } from "@/components/ui/panel";
import { QueryState } from "@/components/ui/query-state";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { useAttachedImages } from "@/components/classifier/help/attached-images";
import { FieldGuideItems } from "@/components/classifier/help/help-content";
import { type ItemDraft, itemsBody, itemsFromRecord } from "@/lib/lab/onboarding-editing";
import { AttachedImageField, EditorFooter, EntryControls, focusSoon, useEntries, useUploads } from "./onboarding-parts";
import type { FieldGuideRecord, Records } from "@/components/ui/wire-types";

/** The project's field guide in its primary language (one per language): created, edited item by item, deleted. */
export function FieldGuideEditor({ projectId, language }: { projectId: number; language: string }) {
  const guide = useQuery({
    queryKey: ["lab-field-guide", projectId, language],
    queryFn: async () =>
      (
        await apiGet<Records<"field_guides", FieldGuideRecord>>(
          `/field_guides?project_id=${projectId}&language=${encodeURIComponent(language)}`,
        )
      ).field_guides[0] ?? null,
    staleTime: 0,
  });
  const action = useAction();
  const { busy, outcome, run } = action;
  return (
    <Panel id="field-guide-heading" title="Field guide">
      <p className="text-sm text-gray-600">
        Reference material volunteers open from the classifier&apos;s Field guide button: an item per thing they may see, with an icon.
      </p>
      <QueryState query={guide} what="field guide">
        {guide.data ? (
          <GuideForm
            key={`${guide.data.id}-${guide.data.updated_at ?? ""}`}
            record={guide.data}
            action={action}
            onChanged={() => guide.refetch()}
          />
        ) : (
          <div className="flex flex-col gap-2">
            <p className="text-sm text-gray-600">This project has no field guide yet.</p>
            <button
              type="button"
              disabled={busy}
              className={`${buttonClass} self-start`}
              onClick={() =>
                void run(async () => {
                  await apiPost("/field_guides", {
                    field_guides: { language, items: [{ title: "New item", content: "" }], links: { project: String(projectId) } },
                  });
                  await guide.refetch();
                  return "The field guide was created.";
                })
              }
            >
              Create the field guide
            </button>
          </div>
        )}
      </QueryState>
      <StatusMessage outcome={outcome} busy={busy} />
    </Panel>
  );
}

function GuideForm({
  record,
  action,
  onChanged,
}: {
  record: FieldGuideRecord;
  /** The panel's action, so its outcome outlives this form (which is remade from the saved record). */
  action: ReturnType<typeof useAction>;
  onChanged(): Promise<unknown>;
}) {
  const [saved] = useState<ItemDraft[]>(() => itemsFromRecord(record.items));
  const local = useUploadUrl();
  const list = useEntries(saved);
  const images = useAttachedImages("field_guides", record.id, true, 0);
  const { busy, run } = action;
  const base = `/field_guides/${record.id}`;
  const items = list.entries;
  const uploads = useUploads(
    `field_guides/${record.id}`,
    items.map((s) => s.icon),
  );

  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]">
      <form
        className="flex min-w-0 flex-col gap-3"
        aria-label="Edit the field guide"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await apiPutFresh(base, { field_guides: { items: itemsBody(items) } });
            // Images no saved item uses go: replaced, removed, uploaded and abandoned.
            const left = await uploads.sweep(
              items.map((s) => s.icon),
              items.map((s) => s.content),
            );
            await onChanged();
            return `The field guide was saved.${left}`;
          });
        }}
      >
        <ol className="flex flex-col gap-3">
          {list.rows.map((r, i) => (
            <li key={r.key}>
              <fieldset className="flex min-w-0 flex-col gap-2 rounded border border-gray-200 p-3">
                <legend className="px-1 text-sm font-semibold">Item {i + 1}</legend>
                <TextInput
                  label={`Item ${i + 1} title`}
                  required
                  value={r.entry.title}
                  onChange={(v) => list.set(i, { ...r.entry, title: v })}
                />
                <TextBox
                  label={`Item ${i + 1} content (Markdown)`}
                  rows={4}
                  value={r.entry.content}
                  onChange={(v) => list.set(i, { ...r.entry, content: v })}
                />
                <AttachedImageField
                  id={`guide-item-${r.key}-icon`}
                  label={`Item ${i + 1} icon`}
                  medium={r.entry.icon}
                  image={r.entry.icon ? images.data?.get(r.entry.icon) : undefined}
                  busy={busy}
                  onUpload={(file) =>
                    void run(async () => {
                      const icon = await uploads.upload(file, local);
                      await images.refetch();
                      list.update(r.key, (item) => ({ ...item, icon }));
                      return `Icon added to item ${i + 1}; save the field guide to keep it.`;
                    })
                  }
                  onRemove={() => list.set(i, { title: r.entry.title, content: r.entry.content })}
                />
                <EntryControls
                  idPrefix="guide-item"
                  index={i}
                  count={list.rows.length}
                  what={`item ${i + 1}`}
                  onMove={(to) => list.move(i, to)}
                  onRemove={() => {
                    list.remove(i);
                    focusSoon("guide-add-item");
                  }}
                />
              </fieldset>
            </li>
          ))}
        </ol>
        <button
          id="guide-add-item"
          type="button"
          className={`${buttonClass} self-start`}
          onClick={() => list.add({ title: "", content: "" })}
        >
          Add an item
        </button>
        <EditorFooter
          what="field guide"
          busy={busy}
          problem={uploads.problem}
          onDiscard={list.discard}
          onDelete={() =>
            void run(async () => {
              await apiDeleteFresh(base);
              await onChanged();
              return "The field guide was deleted.";
            })
          }
        />
      </form>
      <section
        aria-labelledby="guide-preview"
        className="flex min-w-0 flex-col gap-3 self-start rounded-lg border border-gray-200 bg-gray-50 p-4"
      >
        <h3 id="guide-preview" className="text-sm font-semibold text-gray-700">
          Preview: what volunteers see
        </h3>
        <div className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm" data-testid="field-guide-preview">
          {items.length ? (
            <FieldGuideItems items={items} icons={images.data} />
          ) : (
            <p className="text-sm text-gray-600">No items: volunteers see no Field guide button.</p>
          )}
        </div>
      </section>
    </div>
  );
}
