"use client";
import { Component, useState, useSyncExternalStore, type ReactNode } from "react";
import { TaskView } from "@/components/classifier/task-view";
import type { Task, TaskValue } from "@/lib/classifier/task-flow";
import { emptyValue } from "@/lib/classifier/task-flow";
import type { TaskDraft } from "@/lib/lab/task-editing";
import { taskName } from "@/lib/lab/task-names";
import { inputClass } from "@/components/ui/controls";

const noChanges = () => () => {};

/**
 * A live preview of a task as volunteers see it in the classifier (the same component), updated as the
 * task is edited; answers given here go nowhere.
 */
export function WorkflowPreview({ drafts }: { drafts: TaskDraft[] }) {
  const [key, setKey] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, TaskValue>>({});
  const [tool, setTool] = useState(0);
  // Drawn in the browser only: its Markdown is rendered where it is shown, never by the server's page render
  // (a workflow's texts can be megabytes, components/ui/markdown.tsx).
  const inBrowser = useSyncExternalStore(
    noChanges,
    () => true,
    () => false,
  );
  const current = drafts.find((d) => d.key === key) ?? drafts[0];
  if (!current) return null;
  if (!inBrowser) return <p className="text-sm text-gray-600">Loading the preview…</p>;
  const task = current.task as Task;
  let value: TaskValue;
  try {
    value = values[current.key] ?? emptyValue(task);
  } catch {
    value = null;
  }
  return (
    <section aria-labelledby="preview-heading" className="flex flex-col gap-2 rounded border border-gray-200 bg-white p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="preview-heading" className="text-sm font-semibold">
          Preview
        </h3>
        <label className="flex items-center gap-2 text-sm">
          Task
          <select className={`${inputClass} max-w-64`} value={current.key} onChange={(e) => setKey(e.target.value)}>
            {drafts.map((d, i) => (
              <option key={d.key} value={d.key}>
                {taskName(i, d.task)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div data-testid="workflow-preview" className="rounded border border-dashed border-gray-300 p-3">
        <PreviewBoundary taskKey={current.key}>
          <TaskView
            taskKey={`preview-${current.key}`}
            task={task}
            value={value}
            onChange={(v) => setValues((all) => ({ ...all, [current.key]: v }))}
            tool={tool}
            onTool={setTool}
          />
        </PreviewBoundary>
      </div>
    </section>
  );
}

/** A task half-written can fail to render: the preview says so instead of breaking the editor. */
class PreviewBoundary extends Component<{ taskKey: string; children: ReactNode }, { failed: boolean; key: string }> {
  state = { failed: false, key: this.props.taskKey };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  static getDerivedStateFromProps(props: { taskKey: string }, state: { failed: boolean; key: string }) {
    return props.taskKey !== state.key ? { failed: false, key: props.taskKey } : null;
  }
  render() {
    return this.state.failed ? (
      <p className="text-sm text-gray-600">This task cannot be previewed until it is complete.</p>
    ) : (
      this.props.children
    );
  }
}
