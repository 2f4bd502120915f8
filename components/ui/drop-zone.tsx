"use client";
import { type ReactNode, type RefObject, useState } from "react";

/**
 * The lab's one file input: a drop target for dragged files with a labelled button inside it that opens
 * the file chooser (the keyboard's way: Tab to it, Enter or Space), the chosen files named under it, and
 * whatever the caller shows of the upload (`children`: its progress or result). Used for subject files,
 * manifests, a project's images and the tutorial and field guide images.
 */
export function DropZone({
  label,
  hint,
  accept,
  multiple = false,
  disabled = false,
  chosen = [],
  inputRef,
  testId,
  onFiles,
  children,
}: {
  /** The button's text, which labels the file input ("Choose a manifest file"). */
  label: string;
  /** What to drop, said before the button ("Drop the CSV manifest here, or"). */
  hint?: string;
  accept: string;
  multiple?: boolean;
  disabled?: boolean;
  /** The chosen files' names. */
  chosen?: string[];
  inputRef?: RefObject<HTMLInputElement | null>;
  testId?: string;
  onFiles(files: File[]): void;
  children?: ReactNode;
}) {
  const [over, setOver] = useState(false);
  const take = (list: FileList | null | undefined) => {
    const files = [...(list ?? [])];
    if (files.length && !disabled) onFiles(multiple ? files : files.slice(0, 1));
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop target for dragged files; the file chooser inside it is the keyboard's way
    <div
      data-testid={testId}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        take(e.dataTransfer.files);
      }}
      className={`flex flex-col items-center gap-2 rounded border-2 border-dashed p-4 text-center text-sm ${
        over ? "border-brand-600 bg-brand-50" : "border-gray-300"
      } ${disabled ? "opacity-60" : ""}`}
    >
      <p className="text-gray-700">{hint ?? (multiple ? "Drop files here, or" : "Drop a file here, or")}</p>
      <label className="cursor-pointer rounded border border-gray-300 bg-white px-3 py-1 font-medium focus-within:outline-2 focus-within:outline-brand-600 hover:bg-gray-100">
        {label}
        <input
          ref={inputRef}
          type="file"
          accept={accept}
          multiple={multiple}
          disabled={disabled}
          className="sr-only"
          onChange={(e) => {
            const files = e.target.files;
            take(files);
            // Cleared, so choosing the same file again is a change the page hears.
            e.target.value = "";
          }}
        />
      </label>
      {chosen.length > 0 && (
        <p className="max-w-full break-words text-gray-700">
          <span className="font-medium">Chosen:</span>{" "}
          {chosen.length > 5 ? `${chosen.slice(0, 5).join(", ")} and ${chosen.length - 5} more` : chosen.join(", ")}
        </p>
      )}
      {children}
    </div>
  );
}
