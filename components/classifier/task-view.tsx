"use client";
import { describeMark } from "@/lib/classifier/marks";
import { SUPPORTED_TOOLS, type Highlight, type Mark, type SurveyItem, type SurveyTask, type Task, type TaskValue, type Tool } from "@/lib/classifier/task-flow";
import { toolColor } from "./drawing/drawing-layer";
import { SurveyTaskView } from "./survey-task";
import { HighlighterTaskView } from "./tasks/highlighter-task";
import { ShortcutTaskView } from "./tasks/shortcut-task";
import { SliderTaskView } from "./tasks/slider-task";

/**
 * One task of the current step: question (single/multiple), text, slider, shortcut, highlighter, survey,
 * or a drawing task's tool chooser and list of marks (the marks themselves are drawn in the viewer).
 */
export function TaskView({
  taskKey,
  task,
  value,
  onChange,
  tool = 0,
  onTool = () => {},
  frame = 0,
  textUrl = null,
}: {
  taskKey: string;
  task: Task;
  value: TaskValue;
  onChange(v: TaskValue): void;
  tool?: number;
  onTool?(i: number): void;
  frame?: number;
  /** The subject's text/plain location, for a highlighter. */
  textUrl?: string | null;
}) {
  const id = `task-${taskKey}`;
  if (task.type === "single" || task.type === "multiple") {
    const t = task as { question: string; answers: { label: string }[]; help?: string };
    const chosen = task.type === "single" ? [value as number | null] : ((value as number[]) ?? []);
    return (
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 font-medium">{t.question}</legend>
        {t.answers.map((a, i) => (
          <label key={i} className="flex cursor-pointer items-center gap-3 rounded border border-gray-300 px-3 py-2 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
            <input
              type={task.type === "single" ? "radio" : "checkbox"}
              name={id}
              checked={chosen.includes(i)}
              onChange={(e) => {
                if (task.type === "single") onChange(i);
                else onChange(e.target.checked ? [...(value as number[]), i] : (value as number[]).filter((x) => x !== i));
              }}
            />
            <span>{a.label}</span>
          </label>
        ))}
        {t.help && <p className="text-sm text-gray-600">{t.help}</p>}
      </fieldset>
    );
  }
  if (task.type === "text") {
    const t = task as { instruction?: string; help?: string; required?: boolean };
    return (
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="font-medium">
          {t.instruction || "Your answer"}
          {t.required ? " (required)" : ""}
        </label>
        <textarea id={id} rows={3} value={(value as string) ?? ""} onChange={(e) => onChange(e.target.value)} className="rounded border border-gray-300 px-3 py-2" />
        {t.help && <p className="text-sm text-gray-600">{t.help}</p>}
      </div>
    );
  }
  if (task.type === "slider") return <SliderTaskView taskKey={taskKey} task={task} value={typeof value === "number" ? value : 0} onChange={onChange} />;
  if (task.type === "shortcut") return <ShortcutTaskView taskKey={taskKey} task={task} value={(value as number[]) ?? []} onChange={onChange} />;
  if (task.type === "highlighter") return <HighlighterTaskView taskKey={taskKey} task={task} value={(value as Highlight[]) ?? []} onChange={onChange} textUrl={textUrl} />;
  if (task.type === "drawing") {
    const t = task as { instruction?: string; tools: Tool[] };
    const marks = (value as Mark[]) ?? [];
    return (
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 font-medium">{t.instruction || "Mark the subject"}</legend>
        {t.tools.map((tl, i) => (
          <label key={i} className="flex items-center gap-3 rounded border border-gray-300 px-3 py-2 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
            <input type="radio" name={`${id}-tool`} checked={tool === i} onChange={() => onTool(i)} disabled={!SUPPORTED_TOOLS.has(tl.type)} />
            <span aria-hidden className="inline-block h-3 w-3 rounded-full" style={{ background: toolColor(t.tools, i) }} />
            <span>
              {tl.label ?? tl.type} <span className="text-xs text-gray-600">({tl.type}: {marks.filter((m) => m.tool === i).length})</span>
            </span>
          </label>
        ))}
        {marks.length > 0 && (
          <ul aria-label="Your marks" className="flex flex-col gap-1 text-sm">
            {marks.map((m, i) => (
              <li key={i} className="flex items-center justify-between gap-2">
                <span>
                  {t.tools[m.tool]?.label ?? m.toolType} {describeMark(m)}
                  {m.frame !== frame ? ` on image ${m.frame + 1}` : ""}
                </span>
                <button type="button" className="rounded border border-gray-300 px-2 py-0.5 hover:bg-gray-100" onClick={() => onChange(marks.filter((_, j) => j !== i))}>
                  Remove<span className="sr-only"> mark {i + 1}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
    );
  }
  if (task.type === "survey") return <SurveyTaskView taskKey={taskKey} task={task as unknown as SurveyTask} value={(value as SurveyItem[]) ?? []} onChange={onChange} />;
  return <p className="text-sm text-gray-600">This task ({task.type}) is not supported by the web classifier yet.</p>;
}
