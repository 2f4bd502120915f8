"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { createPortal } from "react-dom";
import { apiGet } from "@/components/ui/api-client";
import { Dialog } from "../lazy-dialog";
import { useAttachedImages } from "./attached-images";
import { FieldGuideItems } from "./help-content";
import { useTranslated } from "./translated";
import type { FieldGuideRecord, Records } from "@/components/ui/wire-types";

/** A large screen: the guide is a panel beside the subject (below, a modal sheet over the page). */
const WIDE = "(min-width: 64rem)";
const panelClass = "static h-auto max-h-[calc(100dvh-2rem)] w-full max-w-none rounded-lg border border-gray-200 bg-white p-0 text-gray-900";
const sheetClass =
  "fixed inset-0 h-dvh max-h-none w-full max-w-none border-gray-200 bg-white p-0 text-gray-900 shadow-xl " +
  "backdrop:bg-black/40 sm:left-auto sm:w-[28rem] sm:border-l";

/**
 * The project's field guide: a "Field guide" button opening a panel beside the subject (non-modal, as the
 * established classifier has it: the subject stays in view and usable while its items are compared with
 * it), put in `slot`, the classifier's column for it. Below a large screen, where it would cover the
 * subject anyway, a modal sheet over the page (what it covers is inert, so the focus stays in it). × and
 * Escape close it, the focus back on the button. Nothing when the project has no guide.
 */
export function FieldGuideButton({
  projectId,
  primaryLanguage = "en",
  language = null,
  slot = null,
}: {
  projectId: string;
  primaryLanguage?: string;
  language?: string | null;
  slot?: HTMLElement | null;
}) {
  // The guide is written in the project's primary language (the API lists English unless asked), and
  // translated to others, as the established front end does.
  const found = useQuery({
    queryKey: ["field-guide", projectId, primaryLanguage],
    queryFn: async () =>
      (
        await apiGet<Records<"field_guides", FieldGuideRecord>>(
          `/field_guides?project_id=${projectId}&language=${encodeURIComponent(primaryLanguage)}`,
        )
      ).field_guides[0] ?? null,
    staleTime: 5 * 60_000,
  });
  // In the chosen language where translated.
  const guide = { ...found, data: useTranslated("field_guide", found.data?.id, language, found.data ?? undefined) ?? found.data };
  // Item icons are the guide's attached images, named by id.
  const icons = useAttachedImages("field_guides", guide.data?.id, !!guide.data?.items.some((i) => i.icon));
  const [open, setOpen] = useState(false);
  const [wide, setWide] = useState(true); // as the screen was when it opened
  if (!guide.data?.items.length) return null;
  const panel = (
    <Dialog modal={!wide} open={open} onClose={() => setOpen(false)} title="Field guide" className={wide ? panelClass : sheetClass}>
      <FieldGuideItems items={guide.data.items} icons={icons.data} />
    </Dialog>
  );
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => {
          if (!open) setWide(matchMedia(WIDE).matches);
          setOpen(!open);
        }}
        className={
          "rounded border border-gray-300 bg-white px-3 py-1 text-sm hover:bg-gray-100 aria-expanded:border-brand-600 " +
          "aria-expanded:bg-brand-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600"
        }
      >
        Field guide
      </button>
      {slot ? createPortal(panel, slot) : panel}
    </>
  );
}
