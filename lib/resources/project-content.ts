import { z } from "zod";

// What field guides and tutorials share: they belong to a project, are written in one language, and are
// listed in English unless a language is asked for (as the reference platform and its clients expect).

/** The language a list shows when the request names none. */
export const DEFAULT_CONTENT_LANGUAGE = "en";

/** A medium id as a string ("789"): an item's icon, a step's media. */
const MEDIUM_ID = "must be the id (a string of digits) of one of the record's attached images";
// (ids are PostgreSQL integers: past 2147483647 the lookup itself failed, a 500)
export const ZMediumId = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, MEDIUM_ID)
  .refine((id) => Number(id) <= 2 ** 31 - 1, MEDIUM_ID);
