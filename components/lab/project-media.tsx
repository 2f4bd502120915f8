"use client";
import { useQuery } from "@tanstack/react-query";
import { apiDeleteFresh, apiPost, putSignedFile, requestOrNull } from "@/components/ui/api-client";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { useUploadUrl } from "@/components/ui/upload-url-context";
import { Panel } from "@/components/ui/panel";
import { DropZone } from "@/components/ui/drop-zone";
import { buttonClass } from "@/components/ui/controls";
import type { MediumRecord, Records } from "@/components/ui/wire-types";

type Kind = "avatar" | "background";
const LABEL: Record<Kind, string> = { avatar: "Avatar", background: "Background image" };
const IMAGE_TYPES = "image/png,image/jpeg,image/gif,image/webp";

/** The project's current medium of a kind (its served URL), or null when it has none. */
async function currentMedium(projectId: number, kind: Kind): Promise<string | null> {
  const body = await requestOrNull<Partial<Records<"media", MediumRecord>>>("api", `/projects/${projectId}/${kind}`, { cache: "no-store" });
  return body?.media?.[0]?.src ?? null;
}

/** What a failed upload left: nothing (the new record removed again), or the record to remove by hand. */
function failureOutcome(label: string, removed: boolean, replacing: boolean): string {
  if (!removed) return `Its new ${label} record could not be removed: remove it below, then upload again.`;
  // The API replaces the old medium when it makes the new one, before any byte is sent.
  return replacing ? `Nothing was kept, and the previous ${label}, replaced when the upload started, is gone.` : "Nothing was kept.";
}

function MediumField({ projectId, kind }: { projectId: number; kind: Kind }) {
  const current = useQuery({
    queryKey: ["lab-project-medium", projectId, kind],
    queryFn: () => currentMedium(projectId, kind),
    staleTime: 0,
  });
  const { busy, outcome: status, run } = useAction();
  const id = `medium-${kind}`;

  const local = useUploadUrl();
  const label = LABEL[kind].toLowerCase();

  const upload = (file: File) =>
    run(async () => {
      const replacing = !!current.data;
      // The API answers the new medium with a signed URL to PUT the file to; it replaces the old one.
      const created = await apiPost<Records<"media", MediumRecord>>(`/projects/${projectId}/${kind}`, {
        media: { content_type: file.type },
      });
      try {
        await putSignedFile(local(created.media[0].src), file, `The ${label}`);
      } catch (err) {
        // A record without its file would show as a broken image: take the new one away again.
        const removed = await apiDeleteFresh(`/projects/${projectId}/${kind}`).then(
          () => true,
          () => false,
        );
        await current.refetch();
        throw new Error(`${(err as Error).message}. ${failureOutcome(label, removed, replacing)}`);
      }
      await current.refetch();
      return `${LABEL[kind]} uploaded.`;
    });

  return (
    <div className="flex min-w-0 flex-col gap-2 rounded border border-gray-200 p-3">
      <h3 className="font-medium">{LABEL[kind]}</h3>
      {current.isPending ? (
        <p role="status" className="text-sm text-gray-600">
          Loading…
        </p>
      ) : current.data ? (
        <img
          src={local(current.data)}
          alt={`Current ${LABEL[kind].toLowerCase()}`}
          className={kind === "avatar" ? "h-24 w-24 rounded object-cover" : "h-32 w-full max-w-md rounded object-cover"}
        />
      ) : (
        <p className="text-sm text-gray-600">None yet.</p>
      )}
      <DropZone
        label={`Upload ${kind === "avatar" ? "an avatar" : "a background image"} (PNG, JPEG, GIF or WebP)`}
        hint="Drop an image here, or"
        accept={IMAGE_TYPES}
        disabled={busy}
        testId={id}
        onFiles={([file]) => void upload(file)}
      />
      {current.data && (
        <button
          type="button"
          disabled={busy}
          className={`${buttonClass} self-start`}
          onClick={() =>
            run(async () => {
              await apiDeleteFresh(`/projects/${projectId}/${kind}`);
              await current.refetch();
              return `${LABEL[kind]} removed.`;
            })
          }
        >
          Remove the {LABEL[kind].toLowerCase()}
        </button>
      )}
      <StatusMessage outcome={status} busy={busy} />
    </div>
  );
}

/** Avatar and background image: shown, replaced by an upload, removed. */
export function ProjectMedia({ projectId }: { projectId: number }) {
  return (
    <Panel dense id="media-heading" title="Images">
      <div className="grid gap-3 md:grid-cols-2">
        <MediumField projectId={projectId} kind="avatar" />
        <MediumField projectId={projectId} kind="background" />
      </div>
    </Panel>
  );
}
