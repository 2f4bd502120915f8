// A subject manifest checked in the browser before it is sent: every row through the same rules the
// import job applies (lib/text/manifest-rows.ts), all errors at once with their lines.
import { parse } from "csv-parse/browser/esm/sync";
import { ManifestError, manifestRow, parseManifestHeader, type Column } from "@/lib/text/manifest-rows";

export interface ManifestCheck {
  /** Data rows (the header excluded). */
  rows: number;
  columns: string[];
  errors: { line: number | null; message: string }[];
}

/** At most this many row errors are listed (the rest are counted). */
export const LISTED_ERRORS = 100;

export function checkManifest(text: string, baseUrl: string | null): ManifestCheck {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_quotes: false, info: true }) as never;
  } catch (err) {
    return {
      rows: 0,
      columns: [],
      errors: [{ line: (err as { lines?: number }).lines ?? null, message: `invalid CSV: ${(err as Error).message}` }],
    };
  }
  if (!records.length) return { rows: 0, columns: [], errors: [{ line: null, message: "the manifest is empty" }] };
  let columns: Column[];
  try {
    columns = parseManifestHeader(records[0].record);
  } catch (err) {
    return { rows: records.length - 1, columns: records[0].record, errors: [{ line: 1, message: (err as Error).message }] };
  }
  const errors: ManifestCheck["errors"] = [];
  for (const { record, info } of records.slice(1)) {
    try {
      manifestRow(columns, record, baseUrl, info.lines);
    } catch (err) {
      if (!(err instanceof ManifestError)) throw err;
      errors.push({ line: info.lines, message: err.message.replace(/^line \d+: /, "") });
    }
  }
  if (records.length === 1) errors.push({ line: null, message: "the manifest has a header but no rows" });
  return { rows: records.length - 1, columns: records[0].record, errors };
}
