"use client";
import { apiDelete, apiPost, putSignedFile } from "@/components/ui/api-client";
import { buttonClass } from "@/components/ui/controls";
import type { AttachedImage } from "@/components/classifier/help/attached-images";
import type { MediumRecord, Records } from "@/components/ui/wire-types";

// Pieces the lab's tutorial, mini-course and field guide editors share: a list entry's move and remove
// buttons, and an entry's attached image (uploaded through the record's attached_images media).

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
export async function uploadAttachedImage(parent: string, file: File, local: (url: string) => string): Promise<string> {
  const created = await apiPost<Records<"media", MediumRecord>>(`/${parent}/attached_images`, { media: { content_type: file.type } });
  const medium = created.media[0];
  try {
    await putSignedFile(local(medium.src), file, file.name);
  } catch (err) {
    await apiDelete(`/${parent}/attached_images/${medium.id}`).catch(() => {});
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
      <label htmlFor={id} className="font-medium">
        {medium ? `Replace the ${label.toLowerCase()}` : label}
      </label>
      <input
        id={id}
        type="file"
        accept={ATTACHED_TYPES}
        className="max-w-full"
        disabled={busy}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onUpload(file);
          e.target.value = "";
        }}
      />
      {medium && (
        <button type="button" className={`${buttonClass} self-start`} disabled={busy} onClick={onRemove}>
          Remove the {label.toLowerCase()}
        </button>
      )}
    </div>
  );
}
