"use client";
import { useQuery } from "@tanstack/react-query";
import { useRef } from "react";
import { apiGet } from "@/components/ui/api-client";
import { Markdown } from "@/components/ui/markdown";
import { useUploadUrl } from "@/components/ui/upload-url-context";
import { useTranslated } from "./translated";
import type { FieldGuideRecord, MediumRecord, Records } from "@/components/ui/wire-types";

/**
 * The project's field guide: a "Field guide" button opening a drawer (a native modal dialog: the page
 * behind is inert, Escape closes, focus returns to the button). Nothing when the project has no guide.
 */
export function FieldGuideButton({ projectId, language = null }: { projectId: string; language?: string | null }) {
  const found = useQuery({
    queryKey: ["field-guide", projectId],
    queryFn: async () =>
      (await apiGet<Records<"field_guides", FieldGuideRecord>>(`/field_guides?project_id=${projectId}`)).field_guides[0] ?? null,
    staleTime: 5 * 60_000,
  });
  // In the chosen language where translated.
  const guide = { ...found, data: useTranslated("field_guide", found.data?.id, language, found.data ?? undefined) ?? found.data };
  // Item icons are the guide's attached images, named by id.
  const icons = useQuery({
    queryKey: ["field-guide-icons", guide.data?.id],
    enabled: !!guide.data?.items.some((i) => i.icon),
    queryFn: async () =>
      new Map(
        (await apiGet<Records<"media", Required<MediumRecord>>>(`/field_guides/${guide.data!.id}/attached_images?page_size=100`)).media.map(
          (m) => [m.id, m.src],
        ),
      ),
    staleTime: 5 * 60_000,
  });
  const local = useUploadUrl();
  const dialog = useRef<HTMLDialogElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  if (!guide.data?.items.length) return null;
  return (
    <>
      <button
        ref={button}
        type="button"
        onClick={() => dialog.current?.showModal()}
        className={
          "rounded border border-gray-300 bg-white px-3 py-1 text-sm hover:bg-gray-100 " +
          "focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600"
        }
      >
        Field guide
      </button>
      <dialog
        ref={dialog}
        aria-labelledby="field-guide-title"
        onClose={() => button.current?.focus()}
        className="m-0 ml-auto h-full max-h-none w-full max-w-md p-0 backdrop:bg-black/40"
      >
        <div className="flex h-full flex-col">
          <div className="flex items-center justify-between border-b border-gray-200 p-4">
            <h2 id="field-guide-title" className="text-lg font-semibold">
              Field guide
            </h2>
            <button
              type="button"
              onClick={() => dialog.current?.close()}
              className={
                "rounded border border-gray-300 px-3 py-1 text-sm hover:bg-gray-100 focus-visible:outline " +
                "focus-visible:outline-2 focus-visible:outline-brand-600"
              }
            >
              Close
            </button>
          </div>
          <ul className="flex-1 overflow-y-auto p-4">
            {guide.data.items.map((item, i) => (
              <li key={i} className="mb-3">
                <details className="rounded border border-gray-200">
                  <summary
                    className={
                      "flex cursor-pointer items-center gap-3 p-3 font-semibold focus-visible:outline " +
                      "focus-visible:outline-2 focus-visible:outline-brand-600"
                    }
                  >
                    {item.icon && icons.data?.get(String(item.icon)) && (
                      <img
                        src={local(icons.data.get(String(item.icon))!)}
                        alt=""
                        className="h-10 w-10 shrink-0 rounded object-cover"
                        data-testid="field-guide-icon"
                      />
                    )}
                    {item.title || `Item ${i + 1}`}
                  </summary>
                  <div className="px-3 pb-3 text-sm">
                    <Markdown source={item.content ?? ""} />
                  </div>
                </details>
              </li>
            ))}
          </ul>
        </div>
      </dialog>
    </>
  );
}
