"use client";
import { type Dispatch, useEffect, useRef } from "react";
import { shortcutChoice, type stepOf, type SubjectAction, type SubjectSession } from "@/lib/classifier/subject-session";
import { Alert } from "@/components/ui/alert";
import { isTypingTarget } from "./shortcut-keys";
import { TaskView } from "./task-view";
import type { ClassifierWorkflow } from "./types";

const FOCUSABLE = "input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), [tabindex='0']";

/**
 * The task column's task: the workflow's name, the step's tasks, and Back and Next (or Done). After Done the
 * next subject's first answer takes the focus (`focusFirst`); while `active` (the task tab shown), 1–9
 * choose the n-th answer of the step's question and Enter presses Done (or Next).
 */
export function TaskForm({
  workflow,
  session,
  step,
  dispatch,
  textUrl,
  saving,
  error,
  focusFirst,
  active,
  onDone,
}: {
  workflow: ClassifierWorkflow;
  session: SubjectSession;
  step: ReturnType<typeof stepOf>;
  dispatch: Dispatch<SubjectAction>;
  textUrl: string | null;
  saving: boolean;
  /** Why the last Done failed. */
  error: string | null;
  focusFirst: boolean;
  active: boolean;
  onDone(): void;
}) {
  const { keys, valueAt, ready, next } = step;
  const heading = useRef<HTMLHeadingElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const controls = useRef<HTMLDivElement>(null);
  useFocusFirst(focusFirst, form, controls, keys.length === 0);
  useShortcuts((e) => {
    if (!active || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTypingTarget(e.target)) return;
    const target = e.target instanceof Element ? e.target : null;
    if (target?.closest("dialog, [role=dialog]")) return;
    if (/^[1-9]$/.test(e.key)) {
      const choice = shortcutChoice(workflow.tasks, keys, Number(e.key));
      if (!choice) return;
      e.preventDefault();
      dispatch(choice);
    } else if (e.key === "Enter" && !e.shiftKey) {
      if (target?.closest("button, a, summary, svg, [role=button], [role=application]")) return;
      e.preventDefault();
      form.current?.requestSubmit();
    }
  });
  const go = (action: SubjectAction) => {
    dispatch(action);
    heading.current?.focus();
  };

  return (
    <>
      <h2 id="task-heading" ref={heading} tabIndex={-1} className="font-semibold focus:outline-none sm:text-lg">
        {workflow.displayName}
      </h2>
      <form
        ref={form}
        id="task-form"
        className="flex flex-col gap-3 sm:gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (!ready || saving) return;
          if (next) go({ type: "next", to: next });
          else onDone();
        }}
      >
        {keys.length === 0 && <p>This workflow has no tasks: press Done to record that you saw this subject.</p>}
        <div ref={controls} className="contents">
          {keys.map((key) => (
            <TaskView
              key={key}
              taskKey={key}
              task={workflow.tasks[key]}
              value={valueAt(key)}
              onChange={(value) => dispatch({ type: "answer", key, value })}
              tool={session.tool}
              onTool={(tool) => dispatch({ type: "tool", tool })}
              frame={session.frame}
              textUrl={textUrl}
            />
          ))}
        </div>
        {error !== null && (
          <Alert className="p-3">Your classification was not saved: {error}. Your answers are kept; press Done to try again.</Alert>
        )}
        <div className="flex flex-wrap gap-2">
          {session.history.length > 0 && (
            <button
              type="button"
              onClick={() => go({ type: "back" })}
              className="rounded border border-gray-300 px-4 py-2 hover:bg-gray-100"
              disabled={saving}
            >
              Back
            </button>
          )}
          <button
            type="submit"
            disabled={!ready || saving}
            className="ml-auto rounded bg-brand-600 px-5 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-50"
          >
            {saving ? "Saving…" : next ? "Next" : "Done"}
          </button>
        </div>
      </form>
    </>
  );
}

/**
 * After Done the next subject's first answer takes the focus, so a keyboard goes on from there; a task whose
 * view is still loading is waited for (a few frames). The next subject is shown from its top: a page
 * scrolled down to Done (a long task, a phone) comes back up to it first.
 */
function useFocusFirst(
  focusFirst: boolean,
  form: React.RefObject<HTMLFormElement | null>,
  controls: React.RefObject<HTMLDivElement | null>,
  noTasks: boolean,
) {
  const none = useRef(noTasks);
  useEffect(() => {
    if (!focusFirst) return;
    let frameId = 0;
    let tries = 0;
    const focus = () => {
      // The first task's first control; Done itself when the workflow has no task.
      const first = (none.current ? form.current : controls.current)?.querySelector<HTMLElement>(FOCUSABLE);
      if (first) {
        const grid = form.current?.closest<HTMLElement>("[data-classifier]");
        if (grid && grid.getBoundingClientRect().top < 0) grid.scrollIntoView({ block: "start" });
        first.focus();
      } else if (tries++ < 120) frameId = requestAnimationFrame(focus);
    };
    focus();
    return () => cancelAnimationFrame(frameId);
  }, [focusFirst, form, controls]);
}

/** Listens to the document's keys with the latest `handler` (which reads the render's state). */
function useShortcuts(handler: (e: KeyboardEvent) => void) {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const listener = (e: KeyboardEvent) => latest.current(e);
    document.addEventListener("keydown", listener);
    return () => document.removeEventListener("keydown", listener);
  }, []);
}
