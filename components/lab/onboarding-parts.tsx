"use client";
import { useEffect, useRef, useState } from "react";
import { apiGet, apiPost, putSignedFile, request } from "@/components/ui/api-client";
import { buttonClass, dangerButtonClass, primaryButtonClass } from "@/components/ui/controls";
import { Alert } from "@/components/ui/alert";
import { DropZone } from "@/components/ui/drop-zone";
import type { AttachedImage } from "@/components/classifier/help/attached-images";
import { moveEntry, orphanedUploads, removeEntry, replaceEntry, unusedMedia } from "@/lib/lab/onboarding-editing";
import type { MediumRecord, Records } from "@/components/ui/wire-types";

// Pieces the lab's tutorial, mini-course and field guide editors share: the list of entries being edited,
// an entry's move and remove buttons, and an entry's attached image (uploaded through the record's
// attached_images media, and deleted again when nothing saved uses it).

/** An entry (a step, an item) while editing, with a key that follows it when entries move. */
interface Row<T> {
  key: number;
  entry: T;
}
let nextKey = 1;
const row = <T,>(entry: T): Row<T> => ({ key: nextKey++, entry });

/** A list of entries being edited (`saved`: the record's, to start from and to go back to). */
export function useEntries<T>(saved: T[]) {
  const [rows, setRows] = useState<Row<T>[]>(() => saved.map(row));
  return {
    rows,
    entries: rows.map((r) => r.entry),
    set: (i: number, entry: T) => setRows((rs) => replaceEntry(rs, i, { ...rs[i], entry })),
    /** Changes the entry with `key` (found wherever it is by then: an upload ends after the list may have moved). */
    update: (key: number, change: (entry: T) => T) =>
      setRows((rs) => rs.map((r) => (r.key === key ? { ...r, entry: change(r.entry) } : r))),
    move: (from: number, to: number) => setRows((rs) => moveEntry(rs, from, to)),
    remove: (i: number) => setRows((rs) => removeEntry(rs, i)),
    add: (entry: T) => setRows((rs) => [...rs, row(entry)]),
    /** Back to the saved entries. */
    discard: () => setRows(saved.map(row)),
  };
}

/** Deletes an attached image of `parent` ("tutorials/12"); `keepalive` while the page goes away. */
const deleteMedium = (parent: string, id: string, keepalive = false) =>
  request<null>("api", `/${parent}/attached_images/${id}`, { method: "DELETE", headers: { "If-Match": "*" }, keepalive });

/**
 * The attached images this editor uploaded to `parent` that no saved version names yet. One that no entry
 * names any more (`named`: its entry or image removed or replaced, the changes discarded) is deleted at once;
 * all of them when the editor goes away unsaved (another page or record, the tab closed). After a save,
 * `sweep` deletes every attached image the saved entries do not use. A delete that fails leaves that medium
 * attached: an upload is tried again on the next change and on leaving, and any is deleted by the next save;
 * `problem` says so meanwhile.
 */
export function useUploads(parent: string, named: (string | undefined)[]) {
  const uploads = useRef(new Set<string>());
  const [problem, setProblem] = useState<string | null>(null);
  const namedKey = named.join(",");
  const drop = (ids: string[]) => {
    for (const id of ids) {
      uploads.current.delete(id);
      deleteMedium(parent, id).catch(() => {
        uploads.current.add(id);
        setProblem("An image no longer used could not be deleted; it stays attached until it is deleted on saving or leaving.");
      });
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the images the entries name change (`namedKey` stands for `named`)
  useEffect(() => drop(orphanedUploads(uploads.current, named)), [namedKey]);
  useEffect(() => {
    const all = uploads.current;
    const leave = () => {
      for (const id of all) void deleteMedium(parent, id, true).catch(() => {});
      all.clear();
    };
    window.addEventListener("pagehide", leave);
    return () => {
      window.removeEventListener("pagehide", leave);
      leave();
    };
  }, [parent]);
  return {
    problem,
    /** Uploads `file` (see uploadAttachedImage) and remembers it until it is saved; resolves with its id. */
    upload: async (file: File, local: (url: string) => string) => {
      const id = await uploadAttachedImage(parent, file, local);
      uploads.current.add(id);
      return id;
    },
    /**
     * After a save (`named` and `markdown`: the saved entries'): deletes the attached images they do not use,
     * uploads of this editor or not. Resolves with what to add to the saved message: "" or what stays attached.
     */
    sweep: async (saved: (string | undefined)[], markdown: string[]): Promise<string> => {
      uploads.current.clear();
      setProblem(null);
      let failed = 0;
      try {
        const media = (await apiGet<Records<"media", MediumRecord>>(`/${parent}/attached_images?page_size=100`)).media;
        const ids = unusedMedia(
          media.map((m) => ({ id: String(m.id), src: m.src })),
          saved,
          markdown,
        );
        for (const id of ids) await deleteMedium(parent, id).catch(() => failed++);
      } catch {
        return " Its unused images could not be listed; they stay attached until the next save.";
      }
      return failed
        ? ` ${failed} unused image${failed > 1 ? "s" : ""} could not be deleted and stay${failed > 1 ? "" : "s"} attached until the next save.`
        : "";
    },
  };
}

/** Image and video types the API takes as attached images. */
const ATTACHED_TYPES = "image/png,image/jpeg,image/gif,image/webp,video/mp4,video/webm";

/** Moves focus to the element with `id` once React has rendered (after a move, to the moved entry's button). */
export function focusSoon(id: string) {
  requestAnimationFrame(() => document.getElementById(id)?.focus());
}

/** Move up, move down and remove buttons of entry `index` of `count`, named for screen readers by `what` ("step 2"). */
export function EntryControls({
  idPrefix,
  index,
  count,
  what,
  onMove,
  onRemove,
  disabled,
}: {
  idPrefix: string;
  index: number;
  count: number;
  what: string;
  onMove(to: number): void;
  onRemove(): void;
  disabled?: boolean;
}) {
  const move = (to: number) => {
    onMove(to);
    // Focus follows the entry: its same button, or the other one where it reached an end.
    const dir = to < index ? "up" : "down";
    const still = dir === "up" ? to > 0 : to < count - 1;
    focusSoon(`${idPrefix}-${to}-${still ? dir : dir === "up" ? "down" : "up"}`);
  };
  return (
    <div className="flex flex-wrap gap-2">
      <button
        id={`${idPrefix}-${index}-up`}
        type="button"
        className={buttonClass}
        disabled={disabled || index === 0}
        onClick={() => move(index - 1)}
      >
        Move up<span className="sr-only"> {what}</span>
      </button>
      <button
        id={`${idPrefix}-${index}-down`}
        type="button"
        className={buttonClass}
        disabled={disabled || index === count - 1}
        onClick={() => move(index + 1)}
      >
        Move down<span className="sr-only"> {what}</span>
      </button>
      <button type="button" className={buttonClass} disabled={disabled} onClick={onRemove}>
        Remove<span className="sr-only"> {what}</span>
      </button>
    </div>
  );
}

/**
 * Uploads `file` as an attached image of `parent` ("tutorials/12"): the API answers the new medium with a
 * signed URL, the file goes there (by path on this page's origin: `local` is useUploadUrl's); resolves with
 * the medium's id. When the upload fails, the medium is deleted again, so a failure leaves no broken image.
 */
async function uploadAttachedImage(parent: string, file: File, local: (url: string) => string): Promise<string> {
  const created = await apiPost<Records<"media", MediumRecord>>(`/${parent}/attached_images`, { media: { content_type: file.type } });
  const medium = created.media[0];
  try {
    await putSignedFile(local(medium.src), file, file.name);
  } catch (err) {
    await deleteMedium(parent, String(medium.id)).catch(() => {});
    throw err;
  }
  return String(medium.id);
}

/** An entry's image: shown when chosen (with a remove button), and a file input to upload one (or a replacement). */
export function AttachedImageField({
  id,
  label,
  medium,
  image,
  busy,
  onUpload,
  onRemove,
}: {
  id: string;
  label: string;
  medium: string | undefined;
  image: AttachedImage | undefined;
  busy: boolean;
  onUpload(file: File): void;
  onRemove(): void;
}) {
  return (
    <div className="flex flex-col gap-1 text-sm">
      {medium &&
        (image ? (
          image.video ? (
            <p className="text-gray-600">A video is attached.</p>
          ) : (
            <img src={image.src} alt={`${label} (current)`} className="h-20 w-20 rounded border border-gray-200 object-cover" />
          )
        ) : (
          <p className="text-gray-600">Image {medium} (loading or missing).</p>
        ))}
      <DropZone
        label={medium ? `Replace the ${label.toLowerCase()}` : label}
        hint="Drop an image here, or"
        accept={ATTACHED_TYPES}
        disabled={busy}
        testId={id}
        onFiles={([file]) => onUpload(file)}
      >
        {busy && (
          <p role="status" className="text-gray-700">
            Uploading…
          </p>
        )}
      </DropZone>
      {medium && (
        <button type="button" className={`${buttonClass} self-start`} disabled={busy} onClick={onRemove}>
          Remove the {label.toLowerCase()}
        </button>
      )}
    </div>
  );
}

/**
 * The foot of an onboarding editor's form (tutorial, mini-course, field guide): save (the form's submit),
 * discard the changes, and delete the record after a confirmation; then what a failed image clean-up left.
 */
export function EditorFooter({
  what,
  busy,
  problem,
  onDiscard,
  onDelete,
}: {
  /** The record, as the buttons name it ("field guide"). */
  what: string;
  busy: boolean;
  /** What useUploads could not clean up, if anything. */
  problem: string | null;
  onDiscard(): void;
  onDelete(): void;
}) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <div className="flex flex-wrap gap-2">
        <button type="submit" disabled={busy} className={primaryButtonClass}>
          Save {what}
        </button>
        <button type="button" disabled={busy} className={buttonClass} onClick={onDiscard}>
          Discard changes
        </button>
        {confirming ? (
          <>
            <button type="button" disabled={busy} className={dangerButtonClass} onClick={onDelete}>
              Yes, delete it
            </button>
            <button type="button" className={buttonClass} onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </>
        ) : (
          <button type="button" className={buttonClass} onClick={() => setConfirming(true)}>
            Delete {what}
          </button>
        )}
      </div>
      {problem && <Alert>{problem}</Alert>}
    </>
  );
}
