import type { ClassificationData } from "../types";
import { ZExternalExtractor, type TExternalExtractor } from "./schemas";
import { defineExtractor, ExtractorError } from "./extractor";

/**
 * `external`: the pipeline POSTs the classification data to `url` and stores the JSON answer as the extract.
 * `extract` is never called for it; it throws if it is.
 */
export const externalExtractor = defineExtractor(ZExternalExtractor, () => {
  throw new ExtractorError("external extractors are called over HTTP by the pipeline, not run in-process");
});

/** The request for an external extractor: POST `body` (the classification data) as JSON to `url`. */
export function externalRequest(
  config: Pick<TExternalExtractor, "url">,
  classification: ClassificationData,
): { url: string; body: ClassificationData } {
  return { url: config.url, body: classification };
}
