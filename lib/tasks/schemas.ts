import { z } from "zod";
import { ZCombo } from "./combo/schema";
import { ZDrawing } from "./drawing/schema";
import { ZHighlighter } from "./highlighter/schema";
import { ZQuestion } from "./question/schema";
import { ZShortcut } from "./shortcut/schema";
import { ZSlider } from "./slider/schema";
import { ZSurvey } from "./survey/schema";
import { ZTextTask } from "./text/schema";
import { ZNext } from "./schema-parts";

// How the API validates a workflow's tasks on save, per type: each type's schema from its folder
// (lib/tasks/<type>/schema.ts), one line each below. Server-side (zod); the classifier never loads it.

/** Types the established clients write that this platform stores but neither shows nor edits: type and `next` only. */
const STORED_ONLY_TASK_TYPES = ["dropdown", "dataVisAnnotation", "transcription"] as const;
const ZStoredOnly = z.looseObject({ type: z.enum(STORED_ONLY_TASK_TYPES), next: ZNext });

const schemas = [ZQuestion, ZDrawing, ZSurvey, ZTextTask, ZCombo, ZShortcut, ZSlider, ZHighlighter, ZStoredOnly] as const;

/** Every task type the API accepts. */
export const ACCEPTED_TASK_TYPES: string[] = schemas.flatMap(({ shape: { type } }) =>
  "options" in type ? type.options : [...type.values],
);

export const ZTask = z.discriminatedUnion("type", schemas, {
  error: (i) => (i.code === "invalid_union" ? `task type must be one of ${ACCEPTED_TASK_TYPES.join(", ")}` : undefined),
});
