import { z } from "zod";

// A language as the reference platform accepts it: an ISO 639 code, optionally with a region or script
// after a hyphen or underscore ("en", "zh-tw", "es_MX", "zh-Hant").
export const ZLanguageCode = z
  .string()
  .trim()
  .regex(/^[a-z]{2,3}([-_][a-z0-9]{2,8})*$/i, "must be a language code such as en, zh-tw or es_MX")
  .max(35);

export const sameLanguage = (a: string, b: string) => a.toLowerCase().replace("_", "-") === b.toLowerCase().replace("_", "-");
