"use client";
import { NamedSelect } from "@/components/ui/named-select";
import { labelled, TOOL_LABELS } from "@/lib/lab/labels";
import { DRAWING_TOOL_TYPES, newTool } from "@/lib/tasks/drawing";
import type { TaskDef } from "@/lib/tasks/types";
import { Select, TextInput, buttonClass } from "@/components/ui/controls";
import { AnswerList, type EditorProps, InstructionField, HelpField, NextField } from "../editor-common";

const DETAIL_TYPES: [string, string][] = [
  ["single", "question, one answer"],
  ["multiple", "question, several answers"],
  ["text", "free text"],
];

/** A mark's subtask (a "detail"): a question or a text box asked about each mark of the tool. */
function DetailEditor({
  name,
  detail,
  onChange,
  onRemove,
}: {
  name: string;
  detail: TaskDef;
  onChange(d: TaskDef): void;
  onRemove(): void;
}) {
  return (
    <fieldset className="flex flex-col gap-2 rounded border border-dashed border-gray-300 p-2">
      <legend className="px-1 text-sm font-medium">{name}</legend>
      <div className="flex flex-wrap items-end gap-2">
        <Select
          label={`${name} type`}
          plain
          value={detail.type}
          options={DETAIL_TYPES.map(([value, label]) => ({ value, label }))}
          onChange={(type) =>
            onChange(
              type === "text"
                ? { type: "text", instruction: detail.question ?? detail.instruction ?? "" }
                : {
                    type,
                    question: detail.question ?? detail.instruction ?? "",
                    answers: detail.answers ?? [{ label: "" }, { label: "" }],
                  },
            )
          }
        />
        {detail.type === "text" ? (
          <TextInput
            label={`${name} instruction`}
            required
            value={String(detail.instruction ?? "")}
            onChange={(v) => onChange({ ...detail, instruction: v })}
            className="flex-1"
          />
        ) : (
          <TextInput
            label={`${name} question`}
            required
            value={String(detail.question ?? "")}
            onChange={(v) => onChange({ ...detail, question: v })}
            className="flex-1"
          />
        )}
        <button type="button" className={buttonClass} onClick={onRemove}>
          Remove {name}
        </button>
      </div>
      {detail.type !== "text" && (
        <AnswerList name={name} answers={detail.answers ?? []} onChange={(answers) => onChange({ ...detail, answers })} />
      )}
    </fieldset>
  );
}

/** A drawing task: its instruction, and tools (type, label, colour, how many marks) each with subtasks asked per mark. */
export function DrawingEditor({ taskName, task, onChange, others }: EditorProps) {
  const tools: TaskDef[] = task.tools ?? [];
  const setTool = (i: number, tool: TaskDef) => onChange({ ...task, tools: tools.map((t, j) => (j === i ? tool : t)) });
  return (
    <div className="flex flex-col gap-2">
      <InstructionField taskName={taskName} task={task} onChange={onChange} />
      <HelpField taskName={taskName} task={task} onChange={onChange} />
      {tools.map((tool, i) => {
        const name = `${taskName} tool ${i + 1}`;
        const details: TaskDef[] = tool.details ?? [];
        return (
          <fieldset key={i} className="flex flex-col gap-2 rounded border border-gray-200 p-2">
            <legend className="px-1 text-sm font-semibold">{name}</legend>
            <div className="flex flex-wrap items-end gap-2">
              <NamedSelect
                label={`${name} type`}
                value={tool.type}
                options={labelled(DRAWING_TOOL_TYPES, TOOL_LABELS)}
                onChange={(type) => setTool(i, { ...tool, type })}
              />
              <TextInput
                label={`${name} label`}
                required
                value={String(tool.label ?? "")}
                onChange={(v) => setTool(i, { ...tool, label: v })}
              />
              <TextInput
                label={`${name} colour`}
                type="color"
                value={String(tool.color ?? "#ff0000")}
                onChange={(v) => setTool(i, { ...tool, color: v })}
                className="w-24"
              />
              <TextInput
                label={`${name} at least`}
                type="number"
                value={tool.min == null ? "" : String(tool.min)}
                onChange={(v) => setTool(i, { ...tool, min: v === "" ? null : Number(v) })}
                className="w-28"
              />
              <TextInput
                label={`${name} at most`}
                type="number"
                value={tool.max == null ? "" : String(tool.max)}
                onChange={(v) => setTool(i, { ...tool, max: v === "" ? null : Number(v) })}
                className="w-28"
              />
              {tools.length > 1 && (
                <button type="button" className={buttonClass} onClick={() => onChange({ ...task, tools: tools.filter((_, j) => j !== i) })}>
                  Remove {name}
                </button>
              )}
            </div>
            {details.map((d, k) => (
              <DetailEditor
                key={k}
                name={`${name} subtask ${k + 1}`}
                detail={d}
                onChange={(nd) => setTool(i, { ...tool, details: details.map((x, j) => (j === k ? nd : x)) })}
                onRemove={() => setTool(i, { ...tool, details: details.filter((_, j) => j !== k) })}
              />
            ))}
            <button
              type="button"
              className={`${buttonClass} self-start`}
              onClick={() =>
                setTool(i, { ...tool, details: [...details, { type: "single", question: "", answers: [{ label: "" }, { label: "" }] }] })
              }
            >
              Add a subtask<span className="sr-only"> to {name}</span>
            </button>
          </fieldset>
        );
      })}
      <button
        type="button"
        className={`${buttonClass} self-start`}
        onClick={() => onChange({ ...task, tools: [...tools, newTool("point", tools.length)] })}
      >
        Add a tool<span className="sr-only"> to {taskName}</span>
      </button>
      <NextField taskName={taskName} task={task} onChange={onChange} others={others} />
    </div>
  );
}
