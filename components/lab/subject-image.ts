import type { SubjectRecord } from "@/components/ui/wire-types";

/** A subject's first image location (its preview in the lab's lists), or null when it has none. */
export function subjectImage(s: Pick<SubjectRecord, "locations"> | undefined): string | null {
  for (const l of s?.locations ?? []) {
    const [mime, url] = Object.entries(l)[0] ?? [];
    if (mime?.startsWith("image/") && url) return url;
  }
  return null;
}
