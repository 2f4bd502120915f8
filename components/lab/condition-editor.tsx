"use client";
import { buttonClass, inputClass } from "@/components/ui/controls";
import {
  COMPARISON_LABELS,
  COMPARISONS,
  defaultLookup,
  newComparison,
  type Comparison,
  type ConditionNode,
  type ConstType,
  type Operand,
} from "@/lib/lab/condition-model";

const KIND_LABELS: Record<ConditionNode["kind"], string> = {
  compare: "Comparison",
  and: "All of these (and)",
  or: "Any of these (or)",
  not: "Not",
  always: "Always",
  json: "Written as JSON",
};

/** One block of a rule's condition, recursively: comparisons of lookups and constants, and/or/not, or JSON. */
export function ConditionEditor({
  node,
  onChange,
  suggestions,
  label,
  listId,
}: {
  node: ConditionNode;
  onChange(n: ConditionNode): void;
  suggestions: string[];
  label: string;
  listId: string;
}) {
  const changeKind = (kind: ConditionNode["kind"]) => {
    if (kind === node.kind) return;
    if (kind === "compare") onChange(newComparison(defaultLookup(suggestions)));
    else if (kind === "and" || kind === "or")
      onChange({ kind, children: node.kind === "and" || node.kind === "or" ? node.children : [node] });
    else if (kind === "not") onChange({ kind, child: node });
    else if (kind === "always") onChange({ kind });
    else onChange({ kind: "json", text: '["const", true]' });
  };
  return (
    <div role="group" aria-label={label} className="flex flex-col gap-2 rounded border-l-4 border-brand-600/40 bg-gray-50 p-2">
      <label className="flex items-center gap-2 text-sm">
        <span className="sr-only">{label}: kind</span>
        <select
          aria-label={`${label}: kind`}
          className={inputClass}
          value={node.kind}
          onChange={(e) => changeKind(e.target.value as ConditionNode["kind"])}
        >
          {Object.entries(KIND_LABELS).map(([k, l]) => (
            <option key={k} value={k}>
              {l}
            </option>
          ))}
        </select>
      </label>
      {node.kind === "compare" && (
        <div className="flex flex-wrap items-center gap-2">
          <OperandEditor operand={node.left} onChange={(left) => onChange({ ...node, left })} label={`${label}: left`} listId={listId} />
          <select
            aria-label={`${label}: comparison`}
            className={inputClass}
            value={node.op}
            onChange={(e) => onChange({ ...node, op: e.target.value as Comparison })}
          >
            {COMPARISONS.map((op) => (
              <option key={op} value={op} title={op}>
                {COMPARISON_LABELS[op]}
              </option>
            ))}
          </select>
          <span aria-hidden="true" className="font-mono text-xs text-gray-600">
            {node.op}
          </span>
          <OperandEditor
            operand={node.right}
            onChange={(right) => onChange({ ...node, right })}
            label={`${label}: right`}
            listId={listId}
          />
        </div>
      )}
      {(node.kind === "and" || node.kind === "or") && (
        <div className="flex flex-col gap-2 pl-2">
          {node.children.map((child, i) => (
            <div key={i} className="flex items-start gap-2">
              <div className="flex-1">
                <ConditionEditor
                  node={child}
                  onChange={(c) => onChange({ ...node, children: node.children.map((x, j) => (j === i ? c : x)) })}
                  suggestions={suggestions}
                  label={`${label}, part ${i + 1}`}
                  listId={listId}
                />
              </div>
              {node.children.length > 1 && (
                <button
                  type="button"
                  className={buttonClass}
                  onClick={() => onChange({ ...node, children: node.children.filter((_, j) => j !== i) })}
                >
                  Remove
                  <span className="sr-only">
                    {" "}
                    {label}, part {i + 1}
                  </span>
                </button>
              )}
            </div>
          ))}
          <button
            type="button"
            className={`${buttonClass} self-start`}
            onClick={() => onChange({ ...node, children: [...node.children, newComparison(defaultLookup(suggestions))] })}
          >
            Add a part<span className="sr-only"> to {label}</span>
          </button>
        </div>
      )}
      {node.kind === "not" && (
        <ConditionEditor
          node={node.child}
          onChange={(child) => onChange({ ...node, child })}
          suggestions={suggestions}
          label={`${label}, negated`}
          listId={listId}
        />
      )}
      {node.kind === "json" && (
        <textarea
          aria-label={`${label}: JSON`}
          className={`${inputClass} font-mono`}
          rows={3}
          value={node.text}
          onChange={(e) => onChange({ ...node, text: e.target.value })}
        />
      )}
    </div>
  );
}

function OperandEditor({
  operand,
  onChange,
  label,
  listId,
}: {
  operand: Operand;
  onChange(o: Operand): void;
  label: string;
  listId: string;
}) {
  return (
    <span className="flex flex-wrap items-center gap-1">
      <select
        aria-label={`${label}: source`}
        className={inputClass}
        value={operand.kind}
        onChange={(e) =>
          onChange(
            e.target.value === "lookup"
              ? { kind: "lookup", key: "", fallback: "0", fallbackType: "number" }
              : { kind: "const", value: "0", type: "number" },
          )
        }
      >
        <option value="lookup">the value of</option>
        <option value="const">the constant</option>
      </select>
      {operand.kind === "lookup" ? (
        <>
          <input
            aria-label={`${label}: lookup`}
            list={listId}
            className={`${inputClass} w-44`}
            value={operand.key}
            placeholder="reducer.field"
            onChange={(e) => onChange({ ...operand, key: e.target.value })}
          />
          <input
            aria-label={`${label}: default`}
            className={`${inputClass} w-16`}
            value={operand.fallback}
            title="Used when the value is missing"
            placeholder="default"
            onChange={(e) => onChange({ ...operand, fallback: e.target.value })}
          />
          <TypeSelect
            label={`${label}: default type`}
            value={operand.fallbackType}
            onChange={(fallbackType) => onChange({ ...operand, fallbackType })}
          />
        </>
      ) : (
        <>
          <input
            aria-label={`${label}: value`}
            className={`${inputClass} w-24`}
            value={operand.value}
            onChange={(e) => onChange({ ...operand, value: e.target.value })}
          />
          <TypeSelect label={`${label}: type`} value={operand.type} onChange={(type) => onChange({ ...operand, type })} />
        </>
      )}
    </span>
  );
}

function TypeSelect({ label, value, onChange }: { label: string; value: ConstType; onChange(t: ConstType): void }) {
  return (
    <select aria-label={label} className={inputClass} value={value} onChange={(e) => onChange(e.target.value as ConstType)}>
      <option value="number">number</option>
      <option value="text">text</option>
      <option value="boolean">true/false</option>
    </select>
  );
}
