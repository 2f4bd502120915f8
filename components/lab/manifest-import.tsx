"use client";
import { ProgressBar } from "@/components/ui/progress-bar";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { apiPost, request } from "@/components/ui/api-client";
import { buttonClass, Check, primaryButtonClass } from "@/components/ui/controls";
import { Field } from "@/components/ui/field";
import { Alert } from "@/components/ui/alert";
import { DropZone } from "@/components/ui/drop-zone";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { checkManifest, LISTED_ERRORS, type ManifestCheck } from "@/lib/lab/manifest-check";
import { Panel } from "@/components/ui/panel";
import type { BackgroundJobRecord, Records, SubjectSetRecord } from "@/components/ui/wire-types";
import { invalidateSubjectLists } from "./subject-browser";

/** An import that ended: how many subjects went into which set, or why it failed. */
interface Finished {
  job: BackgroundJobRecord;
  setName: string;
}

const ended = (j: BackgroundJobRecord) => j.status === "completed" || j.status === "failed";

/** Polls an import's background job until it ends, showing its progress; `onEnd` hears the end once. */
function ImportProgress({ jobId, onEnd }: { jobId: string; onEnd(job: BackgroundJobRecord): void }) {
  const job = useQuery({
    queryKey: ["lab-import-job", jobId],
    // no-store: the job changes under the page, and its answer carries Last-Modified, which a browser
    // may otherwise serve from its cache for a while.
    queryFn: async () =>
      (await request<Records<"background_jobs", BackgroundJobRecord>>("api", `/background_jobs/${jobId}`, { cache: "no-store" }))
        .background_jobs[0],
    refetchInterval: (q) => (q.state.data && ended(q.state.data) ? false : 500),
    staleTime: 0,
  });
  const j = job.data;
  const endRef = useRef(onEnd);
  endRef.current = onEnd;
  const end = j && ended(j) ? j : null;
  useEffect(() => {
    if (end) endRef.current(end);
  }, [end]);
  if (end) return null;
  return (
    <div role="status" aria-live="polite" className="flex flex-col gap-1 text-sm">
      <ProgressBar className="w-full max-w-md" max={j?.total ?? 0} value={j?.progress ?? 0} label="Import progress" />
      <span>
        {job.isError
          ? `The import's progress could not be read: ${job.error.message}`
          : !j
            ? "Starting the import…"
            : j.status === "pending"
              ? "Waiting to start…"
              : `Imported ${j.progress ?? 0} of ${j.total ?? "?"}…`}
      </span>
    </div>
  );
}

/** The end of an import: a full bar and what was done, or the failure; and the way to import another file. */
function ImportResult({ finished, onAnother }: { finished: Finished; onAnother(): void }) {
  const { job, setName } = finished;
  const count = job.total ?? job.progress ?? 0;
  return (
    <div className="flex flex-col gap-2 text-sm">
      {job.status === "completed" ? (
        <>
          <ProgressBar className="w-full max-w-md" max={count || 1} value={count || 1} label="Import progress" />
          <p role="status" className="rounded border border-green-300 bg-green-50 p-2">
            Done: {count} {count === 1 ? "subject" : "subjects"} imported into the set “{setName}”.
          </p>
        </>
      ) : (
        <Alert>
          The import failed: {job.error}.{" "}
          {job.progress
            ? `${job.progress} of ${job.total ?? "?"} rows had been imported into the set “${setName}” and stay there.`
            : `Nothing was imported from this file into the set “${setName}”.`}
        </Alert>
      )}
      <button type="button" className={`${buttonClass} self-start`} onClick={onAnother}>
        Import another manifest
      </button>
    </div>
  );
}

/**
 * A CSV manifest imported into a subject set: dropped on the page (or chosen), checked here row by row
 * with the import's own rules (nothing is sent while a row is wrong), then imported in the background
 * with its progress shown. Its end refreshes the subject lists and spends the file (a second import
 * takes choosing a file again); a new set's links to workflows are chosen here and said.
 */
export function ManifestImport({
  projectId,
  subjectSets,
  workflows,
}: {
  projectId: number;
  subjectSets: { id: number; displayName: string }[];
  workflows: { id: number; displayName: string }[];
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<Target>({
    // Asked every time: no set is chosen until the researcher picks one (a project without sets can only make a new one).
    set: subjectSets.length ? "" : "new",
    newName: "",
    unlinked: [],
    baseUrl: "",
  });
  // A new set is linked to every workflow unless unticked (as the upload form's sets are).
  const linked = workflows.filter((w) => !target.unlinked.includes(w.id));
  const baseUrl = target.baseUrl.trim();
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [check, setCheck] = useState<ManifestCheck | null>(null);
  const [job, setJob] = useState<{ id: string; setId: string; setName: string } | null>(null);
  const [finished, setFinished] = useState<Finished | null>(null);
  const { busy, outcome, run, reset } = useAction();
  const chooser = useRef<HTMLInputElement>(null);

  const load = async (f: File) => {
    reset();
    setJob(null);
    setFinished(null);
    const text = await f.text();
    setFile({ name: f.name, text });
    setCheck(checkManifest(text, baseUrl || null));
  };
  const another = () => {
    setFinished(null);
    setJob(null);
    reset();
    chooser.current?.focus();
  };
  const start = (text: string) =>
    run(async () => {
      let made: string | null = null;
      try {
        let setId = target.set;
        let setName = subjectSets.find((s) => String(s.id) === target.set)?.displayName ?? "";
        if (target.set === "new") {
          setName = target.newName.trim();
          const created = await apiPost<Records<"subject_sets", SubjectSetRecord>>("/subject_sets", {
            subject_sets: { display_name: setName, links: { project: String(projectId), workflows: linked.map((w) => String(w.id)) } },
          });
          setId = made = created.subject_sets[0].id;
        }
        const q = baseUrl ? `?base_url=${encodeURIComponent(baseUrl)}` : "";
        const body = await request<Records<"background_jobs", BackgroundJobRecord>>("api", `/subject_sets/${setId}/imports${q}`, {
          method: "POST",
          contentType: "text/csv",
          body: text,
        });
        setJob({ id: body.background_jobs[0].id, setId, setName });
        // Linked (or not) as the form said, and named here so nobody wonders where the set came from.
        if (made)
          return linked.length
            ? `Created the set “${setName}”, linked to ${linked.map((w) => `“${w.displayName}”`).join(", ")}.`
            : `Created the set “${setName}”, linked to no workflow.`;
      } catch (err) {
        // A set made for an import that never started would be left empty: say so (it stays, to import into again).
        if (made) router.refresh();
        throw new Error(`${(err as Error).message}${made ? `. The new set was created and stays, empty: choose it to import into.` : ""}`);
      }
    });

  return (
    <Panel id="manifest-heading" title="Import a manifest">
      <p className="text-sm text-gray-600">
        A CSV file, one subject a row: <code>location</code> columns (URLs, or file names with a base URL; <code>location:image/png</code>{" "}
        names the type), optionally <code>external_id</code>; every other column is metadata.
      </p>
      <ManifestTarget
        subjectSets={subjectSets}
        workflows={workflows}
        target={target}
        onChange={(t) => {
          setTarget(t);
          if (file && t.baseUrl !== target.baseUrl) setCheck(checkManifest(file.text, t.baseUrl.trim() || null));
        }}
      />
      <DropZone
        label="Choose a manifest file"
        hint="Drop the CSV manifest here, or"
        accept=".csv,text/csv"
        testId="manifest-drop-zone"
        inputRef={chooser}
        chosen={file ? [`${file.name} (${check?.rows ?? 0} rows)`] : []}
        onFiles={([f]) => void load(f)}
      />
      {check && check.errors.length > 0 && <ManifestProblems check={check} />}
      {check && check.errors.length === 0 && !job && (
        <p role="status" className="text-sm">
          {check.rows} {check.rows === 1 ? "row" : "rows"} ready to import.
        </p>
      )}
      {job && !finished && (
        <ImportProgress
          jobId={job.id}
          onEnd={(ended) => {
            setFinished({ job: ended, setName: job.setName });
            // The file is spent: importing it again takes choosing it again ("Import another manifest").
            setFile(null);
            setCheck(null);
            // The next import asks again which set it goes into.
            setTarget((t) => ({ ...t, set: "", newName: "" }));
            void invalidateSubjectLists(queryClient);
            router.refresh();
          }}
        />
      )}
      {finished && <ImportResult finished={finished} onAnother={another} />}
      <StatusMessage outcome={outcome} />
      {!finished && (
        <button
          type="button"
          disabled={
            busy || !!job || !file || !check || check.errors.length > 0 || !target.set || (target.set === "new" && !target.newName.trim())
          }
          className={`self-start ${primaryButtonClass}`}
          onClick={() => file && void start(file.text)}
        >
          {busy || job ? "Importing…" : "Import subjects"}
        </button>
      )}
    </Panel>
  );
}

/** Where a manifest's subjects go: a set of the project's or a new one (with its links), and the base URL of file names. */
interface Target {
  /** A subject set's id, or "new". */
  set: string;
  newName: string;
  /** Workflows a new set is not linked to. */
  unlinked: number[];
  baseUrl: string;
}

function ManifestTarget({
  subjectSets,
  workflows,
  target,
  onChange,
}: {
  subjectSets: { id: number; displayName: string }[];
  workflows: { id: number; displayName: string }[];
  target: Target;
  onChange(t: Target): void;
}) {
  return (
    <>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">Into subject set</span>
          <select
            className="rounded border border-gray-300 px-3 py-2"
            value={target.set}
            onChange={(e) => onChange({ ...target, set: e.target.value })}
          >
            <option value="" disabled>
              Choose a subject set…
            </option>
            {subjectSets.map((s) => (
              <option key={s.id} value={s.id}>
                {s.displayName}
              </option>
            ))}
            <option value="new">A new subject set…</option>
          </select>
        </label>
        {target.set === "new" && (
          <Field
            id="manifest-new-set"
            label="New subject set name"
            value={target.newName}
            onChange={(v) => onChange({ ...target, newName: v })}
          />
        )}
        <Field
          id="manifest-base-url"
          label="Base URL for file names (optional)"
          type="url"
          value={target.baseUrl}
          onChange={(v) => onChange({ ...target, baseUrl: v })}
        />
      </div>
      {!target.set && (
        <p className="text-sm text-gray-600">Choose the subject set these subjects go into (or a new one): it is asked for every import.</p>
      )}
      {target.set === "new" ? (
        workflows.length > 0 ? (
          <fieldset className="flex flex-wrap gap-3 text-sm">
            <legend className="font-medium">Link the new set to workflows (their volunteers then see its subjects)</legend>
            {workflows.map((w) => (
              <Check
                key={w.id}
                label={
                  <>
                    {/* Told apart from the upload form's workflow boxes, which name the same workflows. */}
                    <span className="sr-only">Link the new set to </span>
                    {w.displayName}
                  </>
                }
                checked={!target.unlinked.includes(w.id)}
                onChange={(on) =>
                  onChange({ ...target, unlinked: on ? target.unlinked.filter((x) => x !== w.id) : [...target.unlinked, w.id] })
                }
              />
            ))}
          </fieldset>
        ) : (
          <p className="text-sm text-gray-600">The project has no workflows yet: link the new set to one from the workflow&apos;s page.</p>
        )
      ) : (
        <p className="text-sm text-gray-600">The subjects join the chosen set; its links to workflows stay as they are.</p>
      )}
    </>
  );
}

/** The manifest's problems, line by line (the first LISTED_ERRORS of them): nothing is sent while there are any. */
function ManifestProblems({ check }: { check: ManifestCheck }) {
  return (
    <Alert as="div" className="flex flex-col gap-1">
      <p className="font-medium">
        {check.errors.length} {check.errors.length === 1 ? "problem" : "problems"} to fix before importing:
      </p>
      <table className="text-left">
        <caption className="sr-only">Problems in the manifest</caption>
        <thead>
          <tr>
            <th scope="col" className="pr-3">
              Line
            </th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {check.errors.slice(0, LISTED_ERRORS).map((e, i) => (
            <tr key={i}>
              <td className="pr-3 align-top">{e.line ?? "—"}</td>
              <td>{e.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {check.errors.length > LISTED_ERRORS && <p>…and {check.errors.length - LISTED_ERRORS} more.</p>}
    </Alert>
  );
}
