import { queryJsonPath } from "../jsonpath";
import { ZPluckFieldExtractor } from "./schemas";
import { defineExtractor, Missing } from "./extractor";

/**
 * `pluck_field`: `{<name>: value}` for each `field_map` entry, the value found by its JSONPath over the
 * classification data object (`$.subject.metadata.name`, `$.metadata.user_language`, `$.annotations.T0[0].value`).
 * One match gives the value, several an array of them. Any entry without a match makes the extract missing.
 */
export const pluckFieldExtractor = defineExtractor(ZPluckFieldExtractor, (config, c) => {
  const data: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const [name, path] of Object.entries(config.field_map)) {
    const matches = queryJsonPath(c, path).filter((v) => v !== undefined);
    if (matches.length === 0) missing.push(`${name} (${path})`);
    else data[name] = matches.length === 1 ? matches[0] : matches;
  }
  return missing.length ? new Missing(`no value for ${missing.join(", ")}`) : data;
});
