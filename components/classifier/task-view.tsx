"use client";
import { lazyPart } from "./lazy-part";
import type { Highlight, SurveyItem, SurveyTask, Task, TaskValue } from "@/lib/classifier/task-flow";

// Every task type but the question and text is a chunk of its own, loaded when a workflow shows one: the
// first load of the classifier carries only what a question needs.
const loading = () => <p className="animate-pulse text-sm text-gray-600">Loading the task…</p>;
const SurveyTaskView = lazyPart(() => import("./survey-task").then((m) => m.SurveyTaskView), loading());
const HighlighterTaskView = lazyPart(() => import("./tasks/highlighter-task").then((m) => m.HighlighterTaskView), loading());
const ShortcutTaskView = lazyPart(() => import("./tasks/shortcut-task").then((m) => m.ShortcutTaskView), loading());
const SliderTaskView = lazyPart(() => import("./tasks/slider-task").then((m) => m.SliderTaskView), loading());
const DrawingTaskView = lazyPart(() => import("./tasks/drawing-task").then((m) => m.DrawingTaskView), loading());

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
          <label
            key={i}
            className={
              "flex cursor-pointer items-center gap-3 rounded border border-gray-300 px-3 py-2 " +
              "has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
            }
          >
            <input
              type={task.type === "single" ? "radio" : "checkbox"}
              name={id}
              checked={chosen.includes(i)}
              onChange={(e) => {
                if (task.type === "single") onChange(i);
                else onChange(e.target.checked ? [...(value as number[]), i] : (value as number[]).filter((x) => x !== i));
              }}
            />
            <span>{a.label || `Answer ${i + 1}`}</span>
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
        <textarea
          id={id}
          rows={3}
          value={(value as string) ?? ""}
          onChange={(e) => onChange(e.target.value)}
          className="rounded border border-gray-300 px-3 py-2"
        />
        {t.help && <p className="text-sm text-gray-600">{t.help}</p>}
      </div>
    );
  }
  if (task.type === "slider")
    return <SliderTaskView taskKey={taskKey} task={task} value={typeof value === "number" ? value : 0} onChange={onChange} />;
  if (task.type === "shortcut")
    return <ShortcutTaskView taskKey={taskKey} task={task} value={(value as number[]) ?? []} onChange={onChange} />;
  if (task.type === "highlighter")
    return <HighlighterTaskView taskKey={taskKey} task={task} value={(value as Highlight[]) ?? []} onChange={onChange} textUrl={textUrl} />;
  if (task.type === "drawing")
    return <DrawingTaskView id={id} task={task} value={value} onChange={onChange} tool={tool} onTool={onTool} frame={frame} />;
  if (task.type === "survey")
    return (
      <SurveyTaskView taskKey={taskKey} task={task as unknown as SurveyTask} value={(value as SurveyItem[]) ?? []} onChange={onChange} />
    );
  return <p className="text-sm text-gray-600">This task ({task.type}) is not supported by the web classifier yet.</p>;
}
