import { z } from "zod";
import { JsonPathError, parseJsonPath } from "../jsonpath";
import { dispatchOn, ZHttpsUrl, zEnum } from "../validation";

// Config schemas of every extractor type. Each is strict: the generic fields plus the type's own.

export const IF_MISSING = ["error", "ignore", "reject"] as const;
export const SHAPES = ["point", "rectangle", "circle", "ellipse", "line", "polygon"] as const;
export type Shape = (typeof SHAPES)[number];

const ZTaskKey = z.string().min(1).max(100);
/** "major" or "major.minor", compared numerically. */
const ZWorkflowVersion = z.string().regex(/^\d{1,9}(\.\d{1,9})?$/, "must be 'major.minor', e.g. '2.0'");

/** Fields every extractor accepts. */
export const genericExtractorFields = {
  task_key: ZTaskKey.optional(),
  if_missing: zEnum(IF_MISSING).default("error"),
  minimum_workflow_version: ZWorkflowVersion.optional(),
};

const ZJsonPath = z
  .string()
  .min(1)
  .max(500)
  .superRefine((path, ctx) => {
    try {
      parseJsonPath(path);
    } catch (e) {
      if (!(e instanceof JsonPathError)) throw e;
      ctx.addIssue({ code: "custom", message: `invalid JSONPath '${path}': ${e.message}` });
    }
  });

export const ZBlankExtractor = z.strictObject({ type: z.literal("blank"), ...genericExtractorFields, task_key: ZTaskKey });
export const ZQuestionExtractor = z.strictObject({ type: z.literal("question"), ...genericExtractorFields, task_key: ZTaskKey });
export const ZPluckFieldExtractor = z.strictObject({
  type: z.literal("pluck_field"),
  ...genericExtractorFields,
  field_map: z
    .record(z.string().min(1).max(100), ZJsonPath)
    .refine((m) => Object.keys(m).length > 0, "needs at least one field")
    .refine((m) => Object.keys(m).length <= 100, "at most 100 fields"),
});
export const ZSurveyExtractor = z.strictObject({
  type: z.literal("survey"),
  ...genericExtractorFields,
  task_key: ZTaskKey,
  nothing_here_choice: z.string().min(1).max(200).optional(),
});
export const ZShapeExtractor = z.strictObject({
  type: z.literal("shape"),
  ...genericExtractorFields,
  task_key: ZTaskKey,
  shape: zEnum(SHAPES),
  tool_index: z.number().int().min(0).max(1000).optional(),
});
export const ZExternalExtractor = z.strictObject({ type: z.literal("external"), ...genericExtractorFields, url: ZHttpsUrl });

export const extractorSchemas = {
  blank: ZBlankExtractor,
  question: ZQuestionExtractor,
  pluck_field: ZPluckFieldExtractor,
  survey: ZSurveyExtractor,
  shape: ZShapeExtractor,
  external: ZExternalExtractor,
} as const;

export type ExtractorType = keyof typeof extractorSchemas;
export const EXTRACTOR_TYPES = Object.keys(extractorSchemas) as ExtractorType[];
export type ExtractorConfigOf<T extends ExtractorType> = z.output<(typeof extractorSchemas)[T]>;
export type TBlankExtractor = ExtractorConfigOf<"blank">;
export type TQuestionExtractor = ExtractorConfigOf<"question">;
export type TPluckFieldExtractor = ExtractorConfigOf<"pluck_field">;
export type TSurveyExtractor = ExtractorConfigOf<"survey">;
export type TShapeExtractor = ExtractorConfigOf<"shape">;
export type TExternalExtractor = ExtractorConfigOf<"external">;
export type TExtractorConfig = { [K in ExtractorType]: ExtractorConfigOf<K> }[ExtractorType];

/** Any extractor config: `type` picks the schema; an unknown type is an error on `type`. */
export const ZExtractorConfig = dispatchOn("type", "extractor type", extractorSchemas) as unknown as z.ZodType<TExtractorConfig, unknown>;
