"use client";
import { useState } from "react";
import {
  addSurveyEntry,
  choiceImageUrls,
  removeSurveyEntry,
  setChoiceImages,
  setConfusion,
  surveyEntries,
  surveyId,
  updateSurveyEntry,
} from "@/lib/tasks/survey/editing";
import type { TaskDef } from "@/lib/tasks/types";
import { Check, TextBox, TextInput, buttonClass } from "@/components/ui/controls";
import { type EditorProps, InstructionField, NextField } from "../editor-common";

/** Labelled entries kept in an order ({id: {label}} beside [ids]): a characteristic's values, a question's answers. */
function OrderedLabels({
  name,
  items,
  order,
  onChange,
}: {
  name: string;
  items: Record<string, TaskDef>;
  order: string[];
  onChange(items: Record<string, TaskDef>, order: string[]): void;
}) {
  const ids = [...order.filter((k) => k in items), ...Object.keys(items).filter((k) => !order.includes(k))];
  const [label, setLabel] = useState("");
  return (
    <div className="flex flex-col gap-1 pl-4">
      {ids.map((id, i) => (
        <div key={id} className="flex flex-wrap items-end gap-2">
          <TextInput
            label={`${name} ${i + 1}`}
            required
            value={String(items[id].label ?? "")}
            onChange={(v) => onChange({ ...items, [id]: { ...items[id], label: v } }, ids)}
          />
          <button
            type="button"
            className={buttonClass}
            onClick={() =>
              onChange(
                Object.fromEntries(Object.entries(items).filter(([k]) => k !== id)),
                ids.filter((k) => k !== id),
              )
            }
          >
            Remove
            <span className="sr-only">
              {" "}
              {name} {i + 1}
            </span>
          </button>
        </div>
      ))}
      <div className="flex flex-wrap items-end gap-2">
        <TextInput label={`New ${name}`} value={label} onChange={setLabel} />
        <button
          type="button"
          className={buttonClass}
          disabled={!label.trim()}
          onClick={() => {
            const id = surveyId(label, ids);
            onChange({ ...items, [id]: { label: label.trim() } }, [...ids, id]);
            setLabel("");
          }}
        >
          Add<span className="sr-only"> the new {name}</span>
        </button>
      </div>
    </div>
  );
}

/** Adds an entry to a survey part by label. */
function AddEntry({ what, onAdd }: { what: string; onAdd(label: string): void }) {
  const [label, setLabel] = useState("");
  return (
    <div className="flex flex-wrap items-end gap-2">
      <TextInput label={`New ${what}`} value={label} onChange={setLabel} />
      <button
        type="button"
        className={buttonClass}
        disabled={!label.trim()}
        onClick={() => {
          onAdd(label.trim());
          setLabel("");
        }}
      >
        Add {what}
      </button>
    </div>
  );
}

/**
 * A survey task: characteristics (with values) volunteers filter choices by, choices (with their
 * characteristic values, description, images, and what tells them apart from choices they are confused
 * with), and questions asked about each identification.
 */
export function SurveyEditor({ taskName, task, onChange, others }: EditorProps) {
  const characteristics = surveyEntries(task, "characteristics");
  const choices = surveyEntries(task, "choices");
  const questions = surveyEntries(task, "questions");
  return (
    <div className="flex flex-col gap-3">
      <InstructionField taskName={taskName} task={task} onChange={onChange} optional />

      <fieldset className="flex flex-col gap-2 rounded border border-gray-200 p-2">
        <legend className="px-1 text-sm font-semibold">Characteristics</legend>
        {characteristics.map(([id, c]) => (
          <div key={id} className="flex flex-col gap-1 rounded bg-gray-50 p-2">
            <div className="flex flex-wrap items-end gap-2">
              <TextInput
                label={`Characteristic ${id} label`}
                required
                value={String(c.label ?? "")}
                onChange={(v) => onChange(updateSurveyEntry(task, "characteristics", id, { ...c, label: v }))}
              />
              <button type="button" className={buttonClass} onClick={() => onChange(removeSurveyEntry(task, "characteristics", id))}>
                Remove characteristic {id}
              </button>
            </div>
            <OrderedLabels
              name={`${id} value`}
              items={c.values ?? {}}
              order={c.valuesOrder ?? []}
              onChange={(values, valuesOrder) => onChange(updateSurveyEntry(task, "characteristics", id, { ...c, values, valuesOrder }))}
            />
          </div>
        ))}
        <AddEntry
          what="characteristic"
          onAdd={(label) => onChange(addSurveyEntry(task, "characteristics", { label, values: {}, valuesOrder: [] }).task)}
        />
      </fieldset>

      <fieldset className="flex flex-col gap-2 rounded border border-gray-200 p-2">
        <legend className="px-1 text-sm font-semibold">Choices</legend>
        {choices.map(([id, choice]) => (
          <div key={id} className="flex flex-col gap-2 rounded bg-gray-50 p-2">
            <div className="flex flex-wrap items-end gap-2">
              <TextInput
                label={`Choice ${id} label`}
                required
                value={String(choice.label ?? "")}
                onChange={(v) => onChange(updateSurveyEntry(task, "choices", id, { ...choice, label: v }))}
              />
              <button type="button" className={buttonClass} onClick={() => onChange(removeSurveyEntry(task, "choices", id))}>
                Remove choice {id}
              </button>
            </div>
            <TextBox
              label={`Choice ${id} description`}
              value={String(choice.description ?? "")}
              onChange={(v) => onChange(updateSurveyEntry(task, "choices", id, { ...choice, description: v }))}
            />
            {characteristics.map(([cid, c]) => (
              <fieldset key={cid} className="flex flex-wrap gap-3 text-sm">
                <legend className="font-medium">
                  {id}: {c.label || cid}
                </legend>
                {Object.entries((c.values ?? {}) as Record<string, TaskDef>).map(([vid, v]) => {
                  const chosen: string[] = choice.characteristics?.[cid] ?? [];
                  return (
                    <Check
                      key={vid}
                      label={
                        <>
                          {v.label || vid}
                          <span className="sr-only"> for choice {id}</span>
                        </>
                      }
                      checked={chosen.includes(vid)}
                      onChange={(on) =>
                        onChange(
                          updateSurveyEntry(task, "choices", id, {
                            ...choice,
                            characteristics: {
                              ...(choice.characteristics ?? {}),
                              [cid]: on ? [...chosen, vid] : chosen.filter((x) => x !== vid),
                            },
                          }),
                        )
                      }
                    />
                  );
                })}
              </fieldset>
            ))}
            <TextBox
              label={`Choice ${id} images (one URL a line)`}
              value={choiceImageUrls(task, id).join("\n")}
              onChange={(v) =>
                onChange(
                  setChoiceImages(
                    task,
                    id,
                    v
                      .split("\n")
                      .map((s) => s.trim())
                      .filter(Boolean),
                  ),
                )
              }
            />
            {choices
              .filter(([other]) => other !== id)
              .map(([other, o]) => (
                <TextInput
                  key={other}
                  label={`Choice ${id} told apart from ${o.label || other} by`}
                  value={String(choice.confusions?.[other] ?? "")}
                  onChange={(v) => onChange(setConfusion(task, id, other, v))}
                  placeholder="(not confused)"
                />
              ))}
          </div>
        ))}
        <AddEntry
          what="choice"
          onAdd={(label) =>
            onChange(
              addSurveyEntry(task, "choices", {
                label,
                description: "",
                characteristics: {},
                images: [],
                confusions: {},
                confusionsOrder: [],
              }).task,
            )
          }
        />
      </fieldset>

      <fieldset className="flex flex-col gap-2 rounded border border-gray-200 p-2">
        <legend className="px-1 text-sm font-semibold">Questions about each identification</legend>
        {questions.map(([id, q]) => (
          <div key={id} className="flex flex-col gap-1 rounded bg-gray-50 p-2">
            <div className="flex flex-wrap items-end gap-2">
              <TextInput
                label={`Question ${id}`}
                required
                value={String(q.label ?? "")}
                onChange={(v) => onChange(updateSurveyEntry(task, "questions", id, { ...q, label: v }))}
              />
              <Check
                label={`Question ${id} takes several answers`}
                checked={!!q.multiple}
                onChange={(v) => onChange(updateSurveyEntry(task, "questions", id, { ...q, multiple: v }))}
              />
              <Check
                label={`Question ${id} must be answered`}
                checked={!!q.required}
                onChange={(v) => onChange(updateSurveyEntry(task, "questions", id, { ...q, required: v }))}
              />
              <button type="button" className={buttonClass} onClick={() => onChange(removeSurveyEntry(task, "questions", id))}>
                Remove question {id}
              </button>
            </div>
            <OrderedLabels
              name={`${id} answer`}
              items={q.answers ?? {}}
              order={q.answersOrder ?? []}
              onChange={(answers, answersOrder) => onChange(updateSurveyEntry(task, "questions", id, { ...q, answers, answersOrder }))}
            />
          </div>
        ))}
        <AddEntry
          what="question"
          onAdd={(label) =>
            onChange(addSurveyEntry(task, "questions", { label, multiple: false, required: false, answers: {}, answersOrder: [] }).task)
          }
        />
      </fieldset>
      <NextField taskName={taskName} task={task} onChange={onChange} others={others} />
    </div>
  );
}
