"use client";
import { useState } from "react";
import { StatusMessage, type Outcome } from "@/components/ui/status-message";
import { Panel } from "@/components/ui/panel";
import { enginePost } from "@/components/ui/api-client";
import type { DryRunAnswer, DryRunTarget } from "@/components/ui/wire-types";

const brief = (v: unknown) => {
  const s = JSON.stringify(v);
  return s.length > 100 ? `${s.slice(0, 99)}…` : s;
};
const effectText = (t: DryRunTarget) =>
  t.fired.length
    ? t.fired.flatMap((f) => f.effects.map((e) => `${String(e.action)}${e.reason ? ` (${String(e.reason)})` : ""}`)).join(", ")
    : "nothing";

/**
 * A dry run of the configuration being edited: the workflow's last N classifications (or pasted ones)
 * through it, writing nothing; what it would extract, reduce and do per subject, and where that differs
 * from the saved configuration.
 */
export function DryRunPanel({
  workflowId,
  config,
}: {
  workflowId: number;
  config: { ok: true; value: object } | { ok: false; message: string };
}) {
  const [source, setSource] = useState<"last" | "paste">("last");
  const [last, setLast] = useState("50");
  const [pasted, setPasted] = useState("");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [answer, setAnswer] = useState<DryRunAnswer | null>(null);

  const run = async () => {
    setOutcome(null);
    if (!config.ok) return setOutcome({ kind: "error", text: config.message });
    let body: Record<string, unknown>;
    try {
      body = source === "last" ? { last: Number(last) } : { classifications: JSON.parse(pasted) };
    } catch {
      return setOutcome({ kind: "error", text: "The pasted classifications are not valid JSON (a JSON array)." });
    }
    setBusy(true);
    try {
      setAnswer(await enginePost(`/workflows/${workflowId}/dry_run`, { workflow: config.value, ...body }));
    } catch (err) {
      setOutcome({ kind: "error", text: (err as Error).message });
      setAnswer(null);
    } finally {
      setBusy(false);
    }
  };

  const changed = new Set((answer?.diff ?? []).map((d) => `${d.topic}:${d.target_id}`));
  const savedTarget = (t: DryRunTarget) => answer?.saved?.targets.find((s) => s.topic === t.topic && s.target_id === t.target_id);

  return (
    <Panel id="dry-run-heading" title="Dry run">
      <p className="text-sm text-gray-600">
        Try this configuration on classifications before saving it: nothing is written, nothing is retired.
      </p>
      <fieldset className="flex flex-wrap items-end gap-3 text-sm">
        <legend className="sr-only">Classifications to run</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="dry-run-source" checked={source === "last"} onChange={() => setSource("last")} />
          The last
        </label>
        <label className="flex flex-col gap-1">
          <span className="sr-only">How many recent classifications</span>
          <input
            type="number"
            min={1}
            max={500}
            className="w-24 rounded border border-gray-300 px-2 py-1"
            value={last}
            onChange={(e) => setLast(e.target.value)}
            disabled={source !== "last"}
            aria-label="How many recent classifications"
          />
        </label>
        <span>classifications of this workflow</span>
        <label className="flex items-center gap-2">
          <input type="radio" name="dry-run-source" checked={source === "paste"} onChange={() => setSource("paste")} />
          Pasted classifications
        </label>
      </fieldset>
      {source === "paste" && (
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">Classifications (JSON array, as POST /engine/classifications takes them)</span>
          <textarea
            rows={6}
            className="rounded border border-gray-300 px-2 py-1 font-mono text-xs"
            value={pasted}
            onChange={(e) => setPasted(e.target.value)}
          />
        </label>
      )}
      <button
        type="button"
        disabled={busy}
        onClick={() => void run()}
        className="self-start rounded bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-50"
      >
        {busy ? "Running…" : "Run the dry run"}
      </button>
      <StatusMessage outcome={outcome} />
      {answer && (
        <div className="flex flex-col gap-3" data-testid="dry-run-result">
          <p role="status" className="text-sm">
            {answer.classifications} classifications, {answer.extracts.length} extracts, {answer.reductions.length} reductions.
            {answer.skipped.length > 0 && ` Not run here: ${answer.skipped.join(", ")}.`}
            {answer.warnings.length > 0 && ` Warnings: ${answer.warnings.join("; ")}`}
          </p>
          {answer.targets.length > 0 && (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm [&_td]:py-1 [&_td]:pr-3 [&_th]:pr-3">
                <caption className="text-left font-medium">What the rules would do</caption>
                <thead>
                  <tr>
                    <th scope="col">Subject or volunteer</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Effects</th>
                    {answer.saved && <th scope="col">With the saved configuration</th>}
                  </tr>
                </thead>
                <tbody>
                  {answer.targets.map((t) => (
                    <tr
                      key={`${t.topic}:${t.target_id}`}
                      data-testid={`dry-run-${t.topic}-${t.target_id}`}
                      className={`border-t border-gray-100 ${changed.has(`${t.topic}:${t.target_id}`) ? "bg-amber-50" : ""}`}
                    >
                      <td>
                        {t.topic === "subject" ? "Subject" : "Volunteer"} {t.target_id}
                      </td>
                      <td>
                        {t.topic === "subject"
                          ? t.retires
                            ? `would retire (${t.retirement_reason})`
                            : "would not retire"
                          : t.fired.length
                            ? "rules fire"
                            : "no rule fires"}
                      </td>
                      <td>{effectText(t)}</td>
                      {answer.saved && (
                        <td>
                          {savedTarget(t) ? effectText(savedTarget(t)!) : "nothing"}
                          {changed.has(`${t.topic}:${t.target_id}`) ? " (differs)" : ""}
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <details className="rounded border border-gray-200 p-2 text-sm">
            <summary className="cursor-pointer font-medium">Reductions ({answer.reductions.length})</summary>
            <table className="mt-2 w-full text-left [&_td]:py-1 [&_td]:pr-3 [&_th]:pr-3">
              <thead>
                <tr>
                  <th scope="col">Target</th>
                  <th scope="col">Reducer</th>
                  <th scope="col">Data</th>
                </tr>
              </thead>
              <tbody>
                {answer.reductions.map((r, i) => (
                  <tr key={i} className="border-t border-gray-100">
                    <td>
                      {r.topic} {r.target_id}
                    </td>
                    <td>
                      {r.reducer_key}
                      {r.subgroup !== "_default" ? ` · ${r.subgroup}` : ""}
                    </td>
                    <td className="font-mono text-xs">{brief(r.data)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
          <details className="rounded border border-gray-200 p-2 text-sm">
            <summary className="cursor-pointer font-medium">Extracts ({answer.extracts.length})</summary>
            <table className="mt-2 w-full text-left [&_td]:py-1 [&_td]:pr-3 [&_th]:pr-3">
              <thead>
                <tr>
                  <th scope="col">Classification</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Extractor</th>
                  <th scope="col">Data</th>
                </tr>
              </thead>
              <tbody>
                {answer.extracts.map((e, i) => (
                  <tr key={i} className="border-t border-gray-100">
                    <td>{e.classification_id}</td>
                    <td>{e.subject_id}</td>
                    <td>{e.extractor_key}</td>
                    <td className="font-mono text-xs">{brief(e.data)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </div>
      )}
    </Panel>
  );
}
