// A subject manifest's rows, free of I/O: the header's columns, and each row's locations, metadata and
// external id, or a ManifestError naming what is wrong (and the line). The import job runs this over the
// stored file; the lab runs it in the browser before sending, to show every bad row at once.
import { isAcceptedMime } from "./subject-locations";

/** A manifest that cannot be imported; the message names the line. */
export class ManifestError extends Error {
  name = "ManifestError";
}

export const EXTENSION_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  tif: "image/tiff",
  tiff: "image/tiff",
  mp4: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  wav: "audio/wav",
  ogg: "audio/ogg",
  txt: "text/plain",
  json: "application/json",
  pdf: "application/pdf",
};

export type Column = { kind: "location"; mime: string | null } | { kind: "external_id" } | { kind: "metadata"; name: string };

export interface ManifestRow {
  metadata: Record<string, string>;
  locations: Record<string, string>[];
  externalId: string | null;
}

export function parseManifestHeader(header: string[]): Column[] {
  const seen = new Set<string>();
  const columns = header.map((raw, i): Column => {
    const name = raw.trim();
    if (!name) throw new ManifestError(`column ${i + 1} of the header has no name`);
    if (seen.has(name.toLowerCase())) throw new ManifestError(`the header names '${name}' twice`);
    seen.add(name.toLowerCase());
    const typed = /^location:(.+)$/i.exec(name);
    if (typed) {
      const mime = typed[1].trim().toLowerCase();
      if (!isAcceptedMime(mime)) throw new ManifestError(`header '${name}': '${mime}' is not an accepted media type`);
      return { kind: "location", mime };
    }
    if (/^locations?(_?\d+)?$/i.test(name)) return { kind: "location", mime: null };
    if (name.toLowerCase() === "external_id") return { kind: "external_id" };
    return { kind: "metadata", name };
  });
  if (!columns.some((c) => c.kind === "location"))
    throw new ManifestError("the header needs a location column ('location', or 'location:<mime type>')");
  return columns;
}

function locationUrl(value: string, baseUrl: string | null, line: number): string {
  if (/^https?:\/\//i.test(value)) return value;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) || !baseUrl)
    throw new ManifestError(`line ${line}: '${value}' is not an http(s) URL${baseUrl ? "" : " (give base_url to import file names)"}`);
  return new URL(value.replace(/^\/+/, ""), baseUrl).toString();
}

export function manifestRow(columns: Column[], record: string[], baseUrl: string | null, line: number): ManifestRow {
  const row: ManifestRow = { metadata: {}, locations: [], externalId: null };
  columns.forEach((c, i) => {
    const value = record[i] ?? "";
    if (c.kind === "metadata") row.metadata[c.name] = value;
    else if (c.kind === "external_id") row.externalId = value || null;
    else if (value.trim()) {
      const url = locationUrl(value.trim(), baseUrl, line);
      const ext = /\.([a-z0-9]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? "";
      const mime = c.mime ?? EXTENSION_TYPES[ext];
      if (!mime) throw new ManifestError(`line ${line}: cannot tell the media type of '${value}' (name the column 'location:<mime type>')`);
      row.locations.push({ [mime]: url });
    }
  });
  if (!row.locations.length) throw new ManifestError(`line ${line}: no location`);
  if (row.locations.length > 20) throw new ManifestError(`line ${line}: more than 20 locations`);
  return row;
}
