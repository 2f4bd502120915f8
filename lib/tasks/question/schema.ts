import { z } from "zod";
import { ZNext, ZText } from "../schema-parts";

const ZAnswer = z.looseObject({ label: ZText, next: ZNext });

/** A question (single or multiple) as the API stores it. */
export const ZQuestion = z.looseObject({
  type: z.enum(["single", "multiple"]),
  question: ZText,
  answers: z.array(ZAnswer).min(1, "a question needs at least one answer").max(500),
  help: ZText.optional(),
  required: z.boolean().optional(),
});
