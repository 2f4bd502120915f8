"use client";
import { classifierViews } from "@/components/tasks/classifier-views";
import type { Task, TaskValue } from "@/lib/classifier/task-flow";
import type { TaskType } from "@/lib/tasks/registry";

/**
 * One task of the current step, as its type's view shows it (components/tasks/<type>/view.tsx, through the
 * registry in components/tasks/classifier-views.tsx): question (single/multiple), text, slider, shortcut,
 * highlighter, survey, or a drawing task's tool chooser and list of marks (the marks themselves are drawn in
 * the viewer). A type without a view is named to the volunteer as not supported here.
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
  const View = Object.hasOwn(classifierViews, task.type) ? classifierViews[task.type as TaskType] : undefined;
  if (!View) return <p className="text-sm text-gray-600">This task ({task.type}) is not supported by the web classifier yet.</p>;
  return (
    <View
      taskKey={taskKey}
      id={`task-${taskKey}`}
      task={task}
      value={value}
      onChange={onChange}
      tool={tool}
      onTool={onTool}
      frame={frame}
      textUrl={textUrl}
    />
  );
}
