"use client";
import { useQuery } from "@tanstack/react-query";
import { useRef } from "react";
import { apiGet } from "@/components/ui/api-client";
import { useAttachedImages } from "./attached-images";
import { FieldGuideItems } from "./help-content";
import { useTranslated } from "./translated";
import type { FieldGuideRecord, Records } from "@/components/ui/wire-types";

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
  const icons = useAttachedImages("field_guides", guide.data?.id, !!guide.data?.items.some((i) => i.icon));
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
          <div className="flex-1 overflow-y-auto p-4">
            <FieldGuideItems items={guide.data.items} icons={icons.data} />
          </div>
        </div>
      </dialog>
    </>
  );
}
