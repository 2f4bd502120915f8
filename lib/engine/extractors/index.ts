import { blankExtractor } from "./blank";
import { externalExtractor } from "./external";
import type { ExtractOutcome, ExtractorDef } from "./extractor";
import type { ClassificationData } from "../types";
import { pluckFieldExtractor } from "./pluck-field";
import { questionExtractor } from "./question";
import type { ExtractorConfigOf, ExtractorType, TExtractorConfig } from "./schemas";
import { shapeExtractor } from "./shape";
import { surveyExtractor } from "./survey";

/** Every extractor type: its config schema and its pure `extract`. */
export const extractors: { [K in ExtractorType]: ExtractorDef<ExtractorConfigOf<K>> } = {
  blank: blankExtractor,
  question: questionExtractor,
  pluck_field: pluckFieldExtractor,
  survey: surveyExtractor,
  shape: shapeExtractor,
  external: externalExtractor,
};

/** Runs the extractor a config names (convenience over `extractors[config.type].extract`). */
export function extract(config: TExtractorConfig, classification: ClassificationData): ExtractOutcome {
  const def = extractors[config.type] as ExtractorDef<TExtractorConfig>;
  return def.extract(config, classification);
}

export { isEmptyValue } from "./blank";
export { externalRequest } from "./external";
export { compareVersions, ExtractorError, minimumVersionSkip, parseVersion, type ExtractOutcome, type ExtractorDef } from "./extractor";
export { SHAPE_FIELDS } from "./shape";
export * from "./schemas";
