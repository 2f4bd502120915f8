"use client";
import { ProgressBar } from "@/components/ui/progress-bar";
import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiDeleteFresh, apiPost, putSignedFile } from "@/components/ui/api-client";
import { DropZone } from "@/components/ui/drop-zone";
import { Field } from "@/components/ui/field";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { useUploadUrl } from "@/components/ui/upload-url-context";
import type { Records, SubjectRecord } from "@/components/ui/wire-types";
import { invalidateSubjectLists } from "./subject-browser";
import { primaryButtonClass } from "@/components/ui/controls";

const ACCEPTED = /^(image|audio|video|text)\//;

/**
 * One subject per file: create it naming the file's type (`made` hears its id at once, so a failure can
 * delete it), then PUT the file to the signed URL the API answers with.
 */
async function uploadSubject(projectId: number, file: File, local: (url: string) => string, made: (id: string) => void): Promise<string> {
  const created = await apiPost<Records<"subjects", SubjectRecord>>("/subjects", {
    subjects: { locations: [file.type], metadata: { Filename: file.name }, links: { project: String(projectId) } },
  });
  const subject = created.subjects[0];
  made(subject.id);
  await putSignedFile(local(Object.values(subject.locations[0])[0]), file, file.name);
  return subject.id;
}

/** Deletes the subjects a failed upload made; answers the ids that could not be deleted. */
async function deleteSubjects(ids: string[]): Promise<string[]> {
  const kept: string[] = [];
  for (const id of ids) await apiDeleteFresh(`/subjects/${id}`).catch(() => kept.push(id));
  return kept;
}

/**
 * A new subject set from files chosen on this computer (one subject per file, its name kept as
 * `Filename` metadata), linked to the chosen workflows. Progress is shown as files go; a failure stops
 * the upload, says which file, and deletes the subjects already made (a set is made only when every file
 * is stored).
 */
export function SubjectUploadForm({ projectId, workflows }: { projectId: number; workflows: { id: number; displayName: string }[] }) {
  const router = useRouter();
  const local = useUploadUrl();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  // Every workflow is linked unless unticked (including ones created after this form appeared).
  const [unlinked, setUnlinked] = useState<number[]>([]);
  const linked = workflows.map((w) => w.id).filter((id) => !unlinked.includes(id));
  const [done, setDone] = useState(0);
  const { busy, outcome: message, run } = useAction();

  return (
    <form
      className="flex flex-col gap-3 rounded-lg border border-gray-200 bg-white p-4"
      onSubmit={(e) => {
        e.preventDefault();
        setDone(0);
        void run(async () => {
          const made: string[] = [];
          let failure: Error | null = null;
          try {
            // A few at a time: fast, without flooding the server. The first failure stops the others taking
            // new files; the ones under way finish (so every subject made is known) before anything is undone.
            let next = 0;
            await Promise.all(
              Array.from({ length: Math.min(4, files.length) }, async () => {
                while (next < files.length && !failure) {
                  const file = files[next++];
                  try {
                    await uploadSubject(projectId, file, local, (id) => made.push(id));
                    setDone((n) => n + 1);
                  } catch (err) {
                    failure ??= err as Error;
                  }
                }
              }),
            );
            if (failure) throw failure;
            await apiPost("/subject_sets", {
              subject_sets: { display_name: name, links: { project: String(projectId), workflows: linked.map(String), subjects: made } },
            });
            setFiles([]);
            setName("");
            void invalidateSubjectLists(queryClient);
            router.refresh();
            return `Subject set “${name}” created with ${made.length} subjects.`;
          } catch (err) {
            // Nothing half-made stays: the subjects this upload made are deleted again, or named when they cannot be.
            const kept = await deleteSubjects(made);
            setDone(0);
            router.refresh();
            throw new Error(
              `${(err as Error).message}. The subject set was not created` +
                (kept.length
                  ? `, and ${kept.length} of the ${made.length} subjects made for it could not be deleted (ids ${kept.join(", ")}).`
                  : made.length
                    ? `; the ${made.length} ${made.length === 1 ? "subject" : "subjects"} made for it ${made.length === 1 ? "was" : "were"} deleted again, so nothing was kept.`
                    : "; nothing was kept."),
            );
          }
        });
      }}
    >
      <h3 className="text-lg font-semibold">New subject set from files</h3>
      <Field id="set-name" label="Subject set name" required value={name} onChange={setName} />
      <DropZone
        label="Files (one subject each: images, audio, video or text)"
        multiple
        accept="image/*,audio/*,video/*,text/plain"
        disabled={busy}
        chosen={files.map((f) => f.name)}
        onFiles={(chosen) => setFiles(chosen.filter((f) => ACCEPTED.test(f.type)))}
      >
        {busy && (
          <div role="status" aria-live="polite" className="flex items-center gap-2 text-sm">
            <ProgressBar max={files.length} value={done} className="w-48" label="Upload progress" />
            Uploaded {done} of {files.length}
          </div>
        )}
      </DropZone>
      {workflows.length > 0 && (
        <fieldset className="flex flex-wrap gap-3 text-sm">
          <legend className="font-medium">Link to workflows</legend>
          {workflows.map((w) => (
            <label key={w.id} className="flex items-center gap-1">
              <input
                type="checkbox"
                checked={linked.includes(w.id)}
                onChange={(e) => setUnlinked((u) => (e.target.checked ? u.filter((x) => x !== w.id) : [...u, w.id]))}
              />
              {w.displayName}
            </label>
          ))}
        </fieldset>
      )}
      <StatusMessage outcome={message} />
      <button type="submit" disabled={busy || !files.length} className={`self-start ${primaryButtonClass}`}>
        {busy ? "Uploading…" : `Upload ${files.length || ""} ${files.length === 1 ? "file" : "files"}`}
      </button>
    </form>
  );
}
