"use client";
import { buttonClass, inputClass } from "@/components/ui/controls";
import {
  CLAUSE_OPS,
  type Clause,
  newClause,
  type OutputField,
  type Sentence,
  sentenceText,
  withLookup,
} from "@/lib/lab/condition-sentence";

/**
 * A rule's condition written as a sentence: "If [the most common answer] [is] [No] and [its number of
 * votes] [is at least] [3]". Each output is picked from the reducers' outputs by its name (the raw lookup
 * in its title and in the "Raw names" disclosure), an answer from the question's answers by its label.
 */
export function ConditionSentenceEditor({
  sentence,
  fields,
  label,
  onChange,
}: {
  sentence: Sentence;
  fields: OutputField[];
  label: string;
  onChange(s: Sentence): void;
}) {
  const set = (k: number, c: Clause) => onChange({ ...sentence, clauses: sentence.clauses.map((x, j) => (j === k ? c : x)) });
  const fresh = newClause(fields);
  return (
    <div role="group" aria-label={label} className="flex flex-col gap-2 rounded border-l-4 border-brand-600/40 bg-gray-50 p-2 text-sm">
      {sentence.clauses.length === 0 && <p>Always (no condition): the effects happen for every subject.</p>}
      {sentence.clauses.length > 1 && (
        <label className="flex flex-wrap items-center gap-2">
          <span>When</span>
          <select
            className={inputClass}
            value={sentence.join}
            onChange={(e) => onChange({ ...sentence, join: e.target.value as Sentence["join"] })}
          >
            <option value="and">all of these hold</option>
            <option value="or">any of these holds</option>
          </select>
        </label>
      )}
      {sentence.clauses.map((c, k) => (
        <ClauseRow
          key={k}
          clause={c}
          fields={fields}
          label={`${label}, part ${k + 1}`}
          lead={k === 0 ? "If" : sentence.join}
          onChange={(next) => set(k, next)}
          onRemove={() => onChange({ ...sentence, clauses: sentence.clauses.filter((_, j) => j !== k) })}
        />
      ))}
      <button
        type="button"
        className={`${buttonClass} self-start`}
        disabled={!fresh}
        onClick={() => fresh && onChange({ ...sentence, clauses: [...sentence.clauses, fresh] })}
      >
        Add a condition<span className="sr-only"> to {label}</span>
      </button>
      {!fresh && <p className="text-gray-600">Add a reducer to compare its outputs.</p>}
      <p aria-live="polite">
        <span className="font-medium">Reads:</span> {sentenceText(sentence, fields)}
      </p>
      <details>
        <summary className="cursor-pointer text-gray-700">
          Raw names<span className="sr-only"> of {label}</span>
        </summary>
        <ul className="mt-1 font-mono text-xs text-gray-700">
          {sentence.clauses.map((c, k) => (
            <li key={k}>
              {c.lookup} {c.op} {JSON.stringify(c.value)}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}

function ClauseRow({
  clause: c,
  fields,
  label,
  lead,
  onChange,
  onRemove,
}: {
  clause: Clause;
  fields: OutputField[];
  label: string;
  lead: string;
  onChange(c: Clause): void;
  onRemove(): void;
}) {
  const field = fields.find((f) => f.lookup === c.lookup);
  const ops = CLAUSE_OPS[field?.kind ?? "number"];
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="w-8 font-medium">{lead}</span>
      <select
        aria-label={`${label}: what`}
        title={c.lookup}
        className={inputClass}
        value={c.lookup}
        onChange={(e) => onChange(withLookup(c, e.target.value, fields))}
      >
        {fields.map((f) => (
          <option key={f.lookup} value={f.lookup} title={f.lookup}>
            {f.label}
          </option>
        ))}
      </select>
      <select
        aria-label={`${label}: comparison`}
        title={c.op}
        className={inputClass}
        value={c.op}
        onChange={(e) => onChange({ ...c, op: e.target.value as Clause["op"] })}
      >
        {ops.map((o) => (
          <option key={o.op} value={o.op} title={o.op}>
            {o.label}
          </option>
        ))}
      </select>
      {field?.kind === "answer" && field.answers ? (
        <select
          aria-label={`${label}: answer`}
          title={`answer index ${c.value}`}
          className={inputClass}
          value={c.value}
          onChange={(e) => onChange({ ...c, value: e.target.value })}
        >
          {!field.answers.some((a) => a.value === c.value) && <option value={c.value}>{c.value}</option>}
          {field.answers.map((a) => (
            <option key={a.value} value={a.value}>
              {a.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          aria-label={`${label}: value`}
          className={`${inputClass} w-24`}
          inputMode={field?.kind === "answer" ? "text" : "decimal"}
          value={c.value}
          onChange={(e) => onChange({ ...c, value: e.target.value })}
        />
      )}
      <button type="button" className={buttonClass} onClick={onRemove}>
        Remove<span className="sr-only"> {label}</span>
      </button>
    </div>
  );
}
