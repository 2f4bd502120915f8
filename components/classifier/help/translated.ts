"use client";
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "@/components/ui/api-client";
import { applyStrings, type TranslatedType } from "@/lib/i18n/strings";
import type { Records, TranslationRecord } from "@/components/ui/wire-types";

/** `record` (wire shape) in `language` from its translation, or as it is (no language, none, or loading). */
export function useTranslated<T extends object>(
  type: TranslatedType,
  id: string | undefined,
  language: string | null,
  record: T | undefined,
): T | undefined {
  const t = useQuery({
    queryKey: ["translation", type, id, language],
    enabled: !!id && !!language,
    queryFn: async () =>
      (
        await apiGet<Records<"translations", TranslationRecord>>(
          `/translations?translated_type=${type}&translated_id=${id}&language=${language}`,
        )
      ).translations[0]?.strings ?? null,
    staleTime: 5 * 60_000,
  });
  return record && t.data ? (applyStrings(record as Record<string, unknown>, t.data) as T) : record;
}
