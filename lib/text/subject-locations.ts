import { z } from "zod";
import { unprocessable } from "@/lib/errors";

// Subject locations on the wire: a list of mime types (files the client uploads next) or {mime: url}
// objects (files hosted elsewhere). Stored as [{mime: url}] in order.

const MIME = /^(image|audio|video|text)\/[\w.+-]{1,100}$|^application\/(json|pdf)$/;
export const ZLocations = z
  .array(z.union([z.string(), z.record(z.string(), z.string())]))
  .min(1, "locations needs at least one entry")
  .max(20);

/** A subject's locations as stored (and read back): one `{mime type: URL}` per frame, in order. */
export type SubjectLocations = Record<string, string>[];

export interface LocationEntry {
  mime: string;
  /** null: the client will upload the file. */
  url: string | null;
}

/** A media type subjects may have (images, audio, video, text, JSON, PDF). */
export const isAcceptedMime = (mime: string) => MIME.test(mime);

export function parseLocations(raw: z.infer<typeof ZLocations>): LocationEntry[] {
  return raw.map((entry, i) => {
    const [mime, url] = typeof entry === "string" ? [entry, null] : (Object.entries(entry)[0] ?? ["", null]);
    if (typeof entry === "object" && Object.keys(entry).length !== 1)
      throw unprocessable(`locations[${i}] must have exactly one mime type`);
    if (!MIME.test(mime)) throw unprocessable(`locations[${i}]: '${mime}' is not an accepted media type`);
    if (url !== null && !/^(https?:\/\/|\/)/.test(url)) throw unprocessable(`locations[${i}]: the URL must be http(s) or a path`);
    return { mime, url };
  });
}
