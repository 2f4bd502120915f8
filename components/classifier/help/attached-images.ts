"use client";
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "@/components/ui/api-client";
import { useUploadUrl } from "@/components/ui/upload-url-context";
import type { MediumRecord, Records } from "@/components/ui/wire-types";

/** An attached image as a step or item shows it: where it is served, and whether it is a video. */
export interface AttachedImage {
  src: string;
  video: boolean;
}

/**
 * The attached images of a tutorial or field guide by id (a step's `media`, an item's `icon` name them);
 * loaded only when `wanted` (something names one). The lab refetches it after an upload.
 */
export function useAttachedImages(type: "tutorials" | "field_guides", id: string | undefined, wanted: boolean, staleTime = 5 * 60_000) {
  // Our own files by path on this page's origin (components/ui/upload-url.ts).
  const local = useUploadUrl();
  return useQuery({
    queryKey: ["attached-images", type, id],
    enabled: !!id && wanted,
    queryFn: async () =>
      new Map<string, AttachedImage>(
        (await apiGet<Records<"media", Required<MediumRecord>>>(`/${type}/${id}/attached_images?page_size=100`)).media.map((m) => [
          m.id,
          { src: local(m.src), video: m.content_type.startsWith("video/") },
        ]),
      ),
    staleTime,
  });
}
