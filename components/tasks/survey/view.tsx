"use client";
import { InlineMarkdown } from "@/components/ui/markdown";
import { useState } from "react";
import { surveyCharacteristics, surveyChoiceDetails, surveyChoices, surveyItemComplete, surveyQuestions } from "@/lib/tasks/survey/survey";
import type { SurveyItem, SurveyTask } from "@/lib/tasks/types";
import type { TaskViewProps } from "../view-props";
import { inputClass } from "@/components/ui/controls";

/**
 * A survey task: narrow the choices by characteristics or by name, pick one, answer its questions, and
 * identify it; identifications are listed and can be removed. Any number may be made (none: nothing seen).
 */
export function SurveyTaskView({ taskKey, task: raw, value: rawValue, onChange }: TaskViewProps) {
  const task = raw as unknown as SurveyTask & { instruction?: string };
  const value = (rawValue as SurveyItem[] | null) ?? [];
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [search, setSearch] = useState("");
  const [open, setOpen] = useState<SurveyItem | null>(null);
  const characteristics = surveyCharacteristics(task);
  const choices = surveyChoices(task, filters, search);
  const label = (id: string) => task.choices[id]?.label ?? id;

  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-2 font-medium">
        {task.instruction ? <InlineMarkdown source={task.instruction} /> : "Identify what you see"}
      </legend>
      {open ? (
        <div role="group" aria-label={`Identify ${label(open.choice)}`} className="flex flex-col gap-3 rounded border border-brand-600 p-3">
          <p className="font-semibold">{label(open.choice)}</p>
          <ChoiceDetails task={task} choice={open.choice} />
          {surveyQuestions(task, open.choice).map((q) => {
            const answer = open.answers[q.id];
            return (
              <fieldset key={q.id} className="flex flex-col gap-1">
                <legend className="text-sm font-medium">
                  {q.label}
                  {q.required ? " (required)" : ""}
                </legend>
                <div className="flex flex-wrap gap-2">
                  {q.answers.map((a) => {
                    const checked = q.multiple ? Array.isArray(answer) && answer.includes(a.id) : answer === a.id;
                    return (
                      <label
                        key={a.id}
                        className={
                          "flex items-center gap-1 rounded border border-gray-300 px-2 py-1 text-sm " +
                          "has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
                        }
                      >
                        <input
                          type={q.multiple ? "checkbox" : "radio"}
                          name={`${taskKey}-${q.id}`}
                          checked={checked}
                          onChange={(e) => {
                            const list = Array.isArray(answer) ? answer : [];
                            const next = q.multiple ? (e.target.checked ? [...list, a.id] : list.filter((x) => x !== a.id)) : a.id;
                            setOpen({ ...open, answers: { ...open.answers, [q.id]: next } });
                          }}
                        />
                        {a.label}
                      </label>
                    );
                  })}
                </div>
              </fieldset>
            );
          })}
          <div className="flex gap-2">
            <button type="button" className={`${inputClass} hover:bg-gray-100`} onClick={() => setOpen(null)}>
              Cancel
            </button>
            <button
              type="button"
              disabled={!surveyItemComplete(task, open)}
              className="rounded bg-brand-600 px-3 py-1 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50"
              onClick={() => {
                onChange([...value, open]);
                setOpen(null);
              }}
            >
              Identify
            </button>
          </div>
        </div>
      ) : (
        <>
          <div className="flex flex-wrap gap-2">
            <label className="flex flex-col gap-1 text-sm">
              <span>Search</span>
              <input className={inputClass} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
            </label>
            {characteristics.map((c) => (
              <label key={c.id} className="flex flex-col gap-1 text-sm">
                <span>{c.label}</span>
                <select
                  className={inputClass}
                  value={filters[c.id] ?? ""}
                  onChange={(e) => setFilters({ ...filters, [c.id]: e.target.value })}
                >
                  <option value="">Any</option>
                  {c.values.map((v) => (
                    <option key={v.id} value={v.id}>
                      {v.label}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </div>
          <div role="group" aria-label="Choices" className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {choices.map((id) => (
              <button
                key={id}
                type="button"
                className="rounded border border-gray-300 px-2 py-2 text-left text-sm hover:border-brand-600 hover:bg-brand-50"
                onClick={() =>
                  setOpen({ choice: id, answers: {}, filters: Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) })
                }
              >
                {label(id)}
              </button>
            ))}
            {choices.length === 0 && <p className="col-span-full text-sm text-gray-600">No choice matches these filters.</p>}
          </div>
        </>
      )}
      {value.length > 0 && (
        <ul aria-label="Identified" className="flex flex-col gap-1 text-sm">
          {value.map((item, i) => (
            <li key={i} className="flex items-center justify-between gap-2">
              <span>
                {label(item.choice)}
                {Object.keys(item.answers).length > 0 && (
                  <span className="text-gray-600">
                    {" "}
                    (
                    {Object.values(item.answers)
                      .map((a) => (Array.isArray(a) ? a.join(", ") : a))
                      .join("; ")}
                    )
                  </span>
                )}
              </span>
              <button
                type="button"
                className="rounded border border-gray-300 px-2 py-0.5 hover:bg-gray-100"
                onClick={() => onChange(value.filter((_, j) => j !== i))}
              >
                Remove<span className="sr-only"> {label(item.choice)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

/** A choice's description, pictures, and how to tell it from the choices it is often confused with. */
function ChoiceDetails({ task, choice }: { task: SurveyTask; choice: string }) {
  const details = surveyChoiceDetails(task, choice);
  if (!details.description && !details.images.length && !details.confusions.length) return null;
  return (
    <div className="flex flex-col gap-2 text-sm">
      {details.images.length > 0 && (
        <div className="flex gap-2 overflow-x-auto">
          {details.images.map((src, i) => (
            <img
              key={src}
              src={src}
              alt={`${task.choices[choice].label}, example ${i + 1}`}
              className="h-24 rounded object-cover"
              loading="lazy"
            />
          ))}
        </div>
      )}
      {details.description && <p>{details.description}</p>}
      {details.confusions.length > 0 && (
        <ul aria-label="Often confused with" className="flex flex-col gap-1">
          {details.confusions.map((c) => (
            <li key={c.id}>
              <span className="font-medium">Often confused with {c.label}:</span> {c.text}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
