import { z } from "zod";
import { AppError } from "@/lib/errors";

// A language as the reference platform accepts it: an ISO 639 code, optionally with a region or script
// after a hyphen or underscore ("en", "zh-tw", "es_MX", "zh-Hant").
export const ZLanguageCode = z
  .string()
  .trim()
  .regex(/^[a-z]{2,3}([-_][a-z0-9]{2,8})*$/i, "must be a language code such as en, zh-tw or es_MX")
  .max(35);

export const sameLanguage = (a: string, b: string) => a.toLowerCase().replace("_", "-") === b.toLowerCase().replace("_", "-");

/** A language code in the one form stored and compared: lower case (the reference platform downcases it). */
export function normalizeLanguage(raw: string): string {
  const parsed = ZLanguageCode.safeParse(raw);
  if (!parsed.success) throw new AppError("invalid", `language ${parsed.error.issues[0].message}`);
  return parsed.data.toLowerCase();
}
