"use client";
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiGet, apiPost, request } from "@/components/ui/api-client";
import { Field } from "@/components/ui/field";
import { StatusMessage, type Outcome } from "@/components/ui/status-message";
import { checkManifest, LISTED_ERRORS, type ManifestCheck } from "@/lib/lab/manifest-check";
import { Panel } from "@/components/ui/panel";
import type { BackgroundJobRecord, CreatedRecord, Records } from "@/components/ui/wire-types";

/** Polls an import's background job until it ends, showing its progress. */
function ImportProgress({ jobId, onDone }: { jobId: string; onDone(job: BackgroundJobRecord): void }) {
  const job = useQuery({
    queryKey: ["lab-import-job", jobId],
    queryFn: async () => {
      const j = (await apiGet<Records<"background_jobs", BackgroundJobRecord>>(`/background_jobs/${jobId}`)).background_jobs[0];
      if (j.status === "completed" || j.status === "failed") onDone(j);
      return j;
    },
    refetchInterval: (q) => (q.state.data && (q.state.data.status === "completed" || q.state.data.status === "failed") ? false : 500),
    staleTime: 0,
  });
  const j = job.data;
  return (
    <div role="status" aria-live="polite" className="flex flex-col gap-1 text-sm">
      <progress
        className="w-full max-w-md"
        max={j?.total ?? 1}
        value={j?.status === "completed" ? (j.total ?? 1) : (j?.progress ?? 0)}
        aria-label="Import progress"
      />
      <span>
        {!j
          ? "Starting the import…"
          : j.status === "pending"
            ? "Waiting to start…"
            : j.status === "running"
              ? `Imported ${j.progress ?? 0} of ${j.total ?? "?"}…`
              : null}
      </span>
    </div>
  );
}

/**
 * A CSV manifest imported into a subject set: dropped on the page (or chosen), checked here row by row
 * with the import's own rules (nothing is sent while a row is wrong), then imported in the background
 * with its progress shown.
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
  const [target, setTarget] = useState<string>(subjectSets[0] ? String(subjectSets[0].id) : "new");
  const [newName, setNewName] = useState("");
  const [baseUrl, setBaseUrl] = useState("");
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [check, setCheck] = useState<ManifestCheck | null>(null);
  const [over, setOver] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const load = async (f: File) => {
    setOutcome(null);
    setJobId(null);
    const text = await f.text();
    setFile({ name: f.name, text });
    setCheck(checkManifest(text, baseUrl.trim() || null));
  };

  return (
    <Panel id="manifest-heading" title="Import a manifest">
      <p className="text-sm text-gray-600">
        A CSV file, one subject a row: <code>location</code> columns (URLs, or file names with a base URL; <code>location:image/png</code>{" "}
        names the type), optionally <code>external_id</code>; every other column is metadata.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">Into subject set</span>
          <select className="rounded border border-gray-300 px-3 py-2" value={target} onChange={(e) => setTarget(e.target.value)}>
            {subjectSets.map((s) => (
              <option key={s.id} value={s.id}>
                {s.displayName}
              </option>
            ))}
            <option value="new">A new subject set…</option>
          </select>
        </label>
        {target === "new" && (
          <Field id="manifest-new-set" label="New subject set name" value={newName} onChange={(e) => setNewName(e.target.value)} />
        )}
        <Field
          id="manifest-base-url"
          label="Base URL for file names (optional)"
          type="url"
          value={baseUrl}
          onChange={(e) => {
            setBaseUrl(e.target.value);
            if (file) setCheck(checkManifest(file.text, e.target.value.trim() || null));
          }}
        />
      </div>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for a dragged file; the file chooser inside it is the keyboard's way */}
      <div
        data-testid="manifest-drop-zone"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          const f = e.dataTransfer.files?.[0];
          if (f) void load(f);
        }}
        className={
          "flex flex-col items-center gap-2 rounded border-2 border-dashed p-6 text-center text-sm " +
          (over ? "border-brand-600 bg-brand-50" : "border-gray-300")
        }
      >
        <p>{file ? `${file.name}: ${check?.rows ?? 0} rows` : "Drop the CSV manifest here, or"}</p>
        <label className="cursor-pointer rounded border border-gray-300 bg-white px-3 py-1 hover:bg-gray-100">
          Choose a manifest file
          <input
            type="file"
            accept=".csv,text/csv"
            className="sr-only"
            onChange={(e) => e.target.files?.[0] && void load(e.target.files[0])}
          />
        </label>
      </div>
      {check && check.errors.length > 0 && (
        <div role="alert" className="flex flex-col gap-1 rounded border border-red-300 bg-red-50 p-2 text-sm">
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
        </div>
      )}
      {check && check.errors.length === 0 && !jobId && (
        <p role="status" className="text-sm">
          {check.rows} {check.rows === 1 ? "row" : "rows"} ready to import.
        </p>
      )}
      {jobId && (
        <ImportProgress
          jobId={jobId}
          onDone={(job) => {
            setBusy(false);
            setOutcome(
              job.status === "completed"
                ? { kind: "ok", text: `Imported ${job.total ?? job.progress} subjects.` }
                : { kind: "error", text: `The import failed: ${job.error}` },
            );
            router.refresh();
          }}
        />
      )}
      <StatusMessage outcome={outcome} />
      <button
        type="button"
        disabled={busy || !file || !check || check.errors.length > 0 || (target === "new" && !newName.trim())}
        className="self-start rounded bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-50"
        onClick={async () => {
          if (!file) return;
          setBusy(true);
          setOutcome(null);
          try {
            let setId = target;
            if (target === "new") {
              const created = await apiPost<Records<"subject_sets", CreatedRecord>>("/subject_sets", {
                subject_sets: {
                  display_name: newName.trim(),
                  links: { project: String(projectId), workflows: workflows.map((w) => String(w.id)) },
                },
              });
              setId = created.subject_sets[0].id;
            }
            const q = baseUrl.trim() ? `?base_url=${encodeURIComponent(baseUrl.trim())}` : "";
            const body = await request<Records<"background_jobs", CreatedRecord>>("api", `/subject_sets/${setId}/imports${q}`, {
              method: "POST",
              contentType: "text/csv",
              body: file.text,
            });
            setJobId(body.background_jobs[0].id);
          } catch (err) {
            setOutcome({ kind: "error", text: (err as Error).message });
            setBusy(false);
          }
        }}
      >
        {busy ? "Importing…" : "Import subjects"}
      </button>
    </Panel>
  );
}
