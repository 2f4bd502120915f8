import crypto from "node:crypto";
import { keyFromPublicUrl, storage } from "@/lib/storage/storage";
import { signedUrl } from "@/lib/storage/signed-urls";
import type { LocationEntry, SubjectLocations } from "@/lib/text/subject-locations";

// A location given as a bare mime type is a file the client uploads next: it is stored from the start as
// the URL the file will be served at (/uploads/subjects/<id>/<uuid>.<ext>), and the answer to the create
// (or edit) names instead a signed PUT URL for each file not uploaded yet.

const EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/svg+xml": "svg",
  "audio/mpeg": "mp3",
  "text/plain": "txt",
  "video/quicktime": "mov",
};

export function extensionFor(mime: string): string {
  return (
    (Object.hasOwn(EXTENSIONS, mime) ? EXTENSIONS[mime] : undefined) ??
    ((mime.split("/")[1] ?? "")
      .replace(/[^a-z0-9]/gi, "")
      .slice(0, 10)
      .toLowerCase() ||
      "bin")
  );
}

/** The locations to store for a subject: files hosted elsewhere keep their URL; uploads get their served URL. */
export async function storedLocations(subjectId: number, entries: LocationEntry[]): Promise<{ stored: SubjectLocations }> {
  const store = storage();
  return {
    stored: entries.map((e) => ({
      [e.mime]: e.url ?? store.publicUrl(`subjects/${subjectId}/${crypto.randomUUID()}.${extensionFor(e.mime)}`),
    })),
  };
}

/** The locations as a client that just wrote the subject sees them: a signed PUT URL for each file still to upload. */
export async function locationsWithUploadUrls(locations: unknown): Promise<unknown> {
  if (!Array.isArray(locations)) return locations;
  const store = storage();
  return Promise.all(
    locations.map(async (loc) => {
      const [mime, url] = (loc && typeof loc === "object" ? Object.entries(loc)[0] : undefined) ?? [];
      const key = typeof url === "string" ? keyFromPublicUrl(url) : null;
      if (!key || (await store.exists(key))) return loc;
      return { [mime as string]: await signedUrl("PUT", key, { contentType: mime as string }) };
    }),
  );
}
