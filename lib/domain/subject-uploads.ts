import { unprocessable } from "@/lib/http/api-error";
import type { LocationEntry } from "./subject-locations";

/**
 * The locations to store for a subject, and the upload URL of each file the client will PUT.
 * Files hosted elsewhere keep their URL.
 */
export async function storedLocations(_subjectId: number, entries: LocationEntry[]): Promise<{ stored: Record<string, string>[]; uploads: Map<number, string> }> {
  if (entries.some((e) => e.url === null)) throw unprocessable("uploading subject files is not available yet: give {mime: url} locations");
  return { stored: entries.map((e) => ({ [e.mime]: e.url! })), uploads: new Map() };
}
