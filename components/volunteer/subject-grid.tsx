"use client";
import { useRouter } from "next/navigation";
import { type ReactNode, useRef, useState } from "react";
import { Link } from "@/components/ui/link";
import { apiDelete } from "@/components/ui/api-client";
import { EmptyState } from "@/components/ui/query-state";
import { buttonClass } from "@/components/ui/styles";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { useUploadUrl } from "@/components/ui/upload-url-context";
import { MetadataPanel } from "@/components/classifier/viewer/metadata-panel";

/** A subject as the grids show it (lib/pages/collections.ts reads them). */
export interface GridSubject {
  id: number;
  projectId: number;
  projectName: string;
  mime: string;
  url: string;
  metadata?: Record<string, unknown>;
  /** The collection it is listed from, when a remove button removes it from there. */
  collectionId?: number;
  /** A line under the picture (when it was classified). */
  note?: string;
}

/** A subject's first frame: its picture, or its number where it is not an image. */
function Frame({ subject, className }: { subject: GridSubject; className: string }) {
  const local = useUploadUrl();
  return subject.mime.startsWith("image/") ? (
    <img src={local(subject.url)} alt={`Subject ${subject.id}`} className={className} loading="lazy" />
  ) : (
    <span className={`flex items-center justify-center bg-gray-100 text-sm text-gray-700 ${className}`}>Subject {subject.id}</span>
  );
}

/**
 * Subjects as a grid of thumbnails. Each opens a dialog with its picture, its metadata, its project and a
 * link to classify more there; `removable` adds a button removing it from its collection (the collection
 * page's owner; the favourites page's volunteer), after which the page is read again. An empty grid
 * says `empty`.
 */
export function SubjectGrid({
  subjects,
  removable = false,
  label,
  removeLabel = "Remove from collection",
  empty,
}: {
  subjects: GridSubject[];
  removable?: boolean;
  label: string;
  removeLabel?: string;
  /** What an empty grid says (the grid stays, so a removal's outcome outlives the last subject). */
  empty: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const [shown, setShown] = useState<GridSubject | null>(null);
  const router = useRouter();
  const remove = useAction();
  const removeShown = (s: GridSubject) =>
    remove.run(async () => {
      await apiDelete(`/collections/${s.collectionId}/links/subjects/${s.id}`);
      dialog.current?.close();
      router.refresh();
      return `Subject ${s.id} removed.`;
    });
  return (
    <>
      {!subjects.length && <EmptyState>{empty}</EmptyState>}
      <ul className="grid grid-cols-2 gap-3 empty:hidden sm:grid-cols-4" aria-label={label}>
        {subjects.map((s) => (
          <li key={s.id} className="flex flex-col overflow-hidden rounded border border-gray-200 bg-white">
            <button
              type="button"
              className="text-left focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600"
              aria-label={`Open subject ${s.id} of ${s.projectName}`}
              onClick={(e) => {
                opener.current = e.currentTarget;
                remove.reset();
                setShown(s);
                dialog.current?.showModal();
              }}
            >
              <Frame subject={s} className="aspect-square w-full object-cover" />
            </button>
            <p className="flex flex-col px-2 py-1 text-xs text-gray-600">
              <span>Subject {s.id}</span>
              <Link
                href={`/projects/${s.projectId}/classify`}
                title={`Classify ${s.projectName}`}
                className="truncate text-brand-700 underline"
              >
                Classify {s.projectName}
              </Link>
              {s.note && <span>{s.note}</span>}
            </p>
          </li>
        ))}
      </ul>
      <StatusMessage outcome={shown ? null : remove.outcome} />
      <dialog
        ref={dialog}
        aria-labelledby="subject-dialog-title"
        onClose={() => {
          setShown(null);
          opener.current?.focus();
        }}
        className="m-auto w-[min(40rem,calc(100vw-2rem))] rounded-lg border border-gray-200 p-0 shadow-xl backdrop:bg-black/40"
      >
        {shown && (
          <div className="flex flex-col gap-3 p-4">
            <h2 id="subject-dialog-title" className="text-lg font-semibold">
              Subject {shown.id} · {shown.projectName}
            </h2>
            <Frame subject={shown} className="max-h-[60vh] w-full rounded bg-gray-100 object-contain" />
            {shown.metadata && <MetadataPanel metadata={shown.metadata} />}
            <StatusMessage outcome={remove.outcome} busy={remove.busy} />
            <div className="flex flex-wrap items-center gap-2">
              <Link
                href={`/projects/${shown.projectId}/classify`}
                className="rounded bg-brand-600 px-3 py-1 text-sm font-semibold text-white hover:bg-brand-700"
              >
                Classify more in {shown.projectName}
              </Link>
              <Link href={`/projects/${shown.projectId}`} className="text-sm text-brand-700 underline">
                About the project
              </Link>
              {removable && shown.collectionId !== undefined && (
                <button type="button" className={buttonClass} disabled={remove.busy} onClick={() => void removeShown(shown)}>
                  {removeLabel}
                </button>
              )}
              <button type="button" className={`${buttonClass} ml-auto`} onClick={() => dialog.current?.close()}>
                Close
              </button>
            </div>
          </div>
        )}
      </dialog>
    </>
  );
}
