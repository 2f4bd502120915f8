import { z } from "zod";
import { ZLabelled, ZNext, ZText } from "../schema-parts";

export const ZSurvey = z.looseObject({
  type: z.literal("survey"),
  choices: z.record(z.string(), z.looseObject({ label: ZText, characteristics: z.record(z.string(), z.array(z.string())).optional() })),
  choicesOrder: z.array(z.string()).optional(),
  characteristics: z
    .record(
      z.string(),
      z.looseObject({ label: ZText, values: z.record(z.string(), ZLabelled), valuesOrder: z.array(z.string()).optional() }),
    )
    .optional(),
  characteristicsOrder: z.array(z.string()).optional(),
  questions: z
    .record(
      z.string(),
      z.looseObject({
        label: ZText,
        multiple: z.boolean().optional(),
        required: z.boolean().optional(),
        answers: z.record(z.string(), ZLabelled),
        answersOrder: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  questionsOrder: z.array(z.string()).optional(),
  next: ZNext,
});
