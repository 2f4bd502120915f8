"use client";
import { useMutation } from "@tanstack/react-query";
import { type KeyboardEvent as ReactKeyboardEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { usePending } from "./pending-classifications";
import { evaluateFeedback, type FeedbackResult } from "@/lib/classifier/feedback";
import { SubjectBanners } from "./volunteer/subject-banners";
import { lazyPart } from "./lazy-part";
import {
  classificationBody,
  emptyValue,
  isStepAnswered,
  nextTask,
  RECORDED_TASKS,
  shortcutChosen,
  stepTasks,
  unsupportedTasks,
  type Mark,
  type Task,
  type TaskValue,
  type Tool,
} from "@/lib/classifier/task-flow";
import { frameMedia, SubjectViewer, type Dimensions, type DrawingState } from "./subject-viewer";
import { TaskView } from "./task-view";
import { MetadataPanel } from "./viewer/metadata-panel";
import { isTypingTarget } from "./shortcut-keys";
import type { ClassifierWorkflow, QueuedSubject } from "./types";
import { taskType } from "@/lib/tasks/registry";
import { useWorkflowTutorial } from "./help/workflow-tutorial";

// The classification of one subject: its tasks step by step beside the subject viewer, saved through the
// pending queue. A chunk of its own (lib/classifier/task-flow and the viewer with it): the classify page's
// first load is the queue and the shell, and this arrives while the first subjects are fetched.

const FavouriteButton = lazyPart(() => import("./volunteer/favourite-button").then((m) => m.FavouriteButton));
const CollectButton = lazyPart(() => import("./volunteer/collect-button").then((m) => m.CollectButton));
// The tutorial's steps, in the "Tutorial" tab (the tutorial dialog's chunk).
const TutorialPanel = lazyPart(() => import("./help/tutorial").then((m) => m.TutorialPanel));

/** Where the classifier puts a subject's parts beside the subject: the task column, and below the subject. */
interface Slots {
  side: HTMLElement | null;
  below: HTMLElement | null;
}

/** The note about task types the web classifier skips (none for most workflows). */
export function UnsupportedNote({ workflow }: { workflow: ClassifierWorkflow }) {
  const unsupported = unsupportedTasks(workflow.tasks, workflow.firstTask);
  if (!unsupported.length) return null;
  return (
    <p role="note" className="rounded border border-amber-300 bg-amber-50 p-3 text-sm">
      Some of this workflow&apos;s tasks ({unsupported.join(", ")}) are not supported by the web classifier yet; they are skipped.
    </p>
  );
}

export function SubjectClassification({
  projectId,
  workflow,
  subject,
  onDone,
  goldStandard = false,
  focusFirst = false,
  slots,
  primaryLanguage = "en",
  language = null,
}: {
  projectId: string;
  workflow: ClassifierWorkflow;
  subject: QueuedSubject;
  onDone(feedback: FeedbackResult[]): void;
  goldStandard?: boolean;
  /** Focus the first task's first control when it shows (a subject after Done; never on the page's first load). */
  focusFirst?: boolean;
  /** The classifier's column beside the subject (tools, then the task) and the place below the subject. */
  slots: Slots;
  primaryLanguage?: string;
  language?: string | null;
}) {
  const startedAt = useRef(new Date());
  const [step, setStep] = useState<string | null>(workflow.tasks[workflow.firstTask] ? workflow.firstTask : null);
  const [history, setHistory] = useState<string[]>([]);
  const [values, setValues] = useState<Record<string, TaskValue>>({});
  const [frame, setFrame] = useState(0);
  const [tool, setTool] = useState(0);
  const dimensions = useRef<(Dimensions | null)[]>(subject.locations.map(() => null));
  const heading = useRef<HTMLHeadingElement>(null);
  // With a tutorial, the task column has two tabs, "Task" and "Tutorial" (the tutorial read inline).
  const hasTutorial = !!useWorkflowTutorial(workflow.id, "tutorial", primaryLanguage).data;
  const [tab, setTab] = useState<Tab>("task");
  const onTask = !hasTutorial || tab === "task";

  const keys = step ? stepTasks(workflow.tasks, step) : [];
  const valueAt = (key: string) => (key in values ? values[key] : emptyValue(workflow.tasks[key]));
  const setValue = (key: string, v: TaskValue) => setValues((all) => ({ ...all, [key]: v }));
  const ready = isStepAnswered(workflow.tasks, keys, valueAt);
  // A combo branches as a whole; a single question in a step decides where it goes; a chosen shortcut ends
  // (a task that can end the classification is beside the step's own tasks, never one of them).
  const main = keys.filter((k) => !taskType(workflow.tasks[k].type)?.endsClassification);
  const next =
    step && !shortcutChosen(workflow.tasks, keys, valueAt)
      ? nextTask(workflow.tasks, step, main.length === 1 ? valueAt(main[0]) : null)
      : null;
  const textUrl = subject.locations.map(frameMedia).find(([mime]) => mime.startsWith("text/"))?.[1] ?? null;

  const pending = usePending();
  // Done stores the classification in the pending queue (sent in the background) and moves on at once.
  const save = useMutation({
    mutationFn: async () => {
      const answered = [...history, ...(step ? [step] : [])]
        .flatMap((s) => stepTasks(workflow.tasks, s))
        .map((key) => ({ key, value: valueAt(key) }));
      const feedback = evaluateFeedback(
        workflow.tasks as never,
        answered.map(({ key, value }) => ({ task: key, value })),
        subject.metadata ?? {},
      );
      await pending.submit({
        ...classificationBody({
          projectId,
          workflowId: workflow.id,
          workflowVersion: workflow.version,
          subjectId: subject.id,
          answered: answered.filter(({ key }) => isShown(workflow.tasks[key])),
          tasks: workflow.tasks,
          startedAt: startedAt.current,
          finishedAt: new Date(),
          userAgent: navigator.userAgent,
          userLanguage: navigator.language || "en",
          utcOffset: new Date().getTimezoneOffset() * 60,
          subjectDimensions: dimensions.current,
          selectionState: { retired: subject.retired, already_seen: subject.already_seen, selection_state: subject.selection_state },
          goldStandard,
        }),
      });
      return feedback;
    },
    // Only the browser's own store is involved: offline is exactly when it must run (TanStack pauses by default).
    networkMode: "always",
    onSuccess: onDone,
  });

  const drawingKey = keys.find((k) => workflow.tasks[k].type === "drawing");
  const drawingTask = drawingKey ? (workflow.tasks[drawingKey] as { tools: Tool[] }) : null;
  const drawing: DrawingState | null =
    drawingKey && drawingTask?.tools[tool]
      ? { tools: drawingTask.tools, tool, marks: valueAt(drawingKey) as Mark[], onChange: (marks: Mark[]) => setValue(drawingKey, marks) }
      : null;

  const form = useRef<HTMLFormElement>(null);
  const controls = useRef<HTMLDivElement>(null);
  // After Done the next subject's first answer takes the focus, so a keyboard goes on from there; a task
  // whose view is still loading is waited for (a few frames). The next subject is shown from its top: a
  // page scrolled down to Done (a long task, a phone) comes back up to it first.
  const noTasks = useRef(keys.length === 0);
  useEffect(() => {
    if (!focusFirst) return;
    let frameId = 0;
    let tries = 0;
    const focus = () => {
      // The first task's first control; Done itself when the workflow has no task.
      const first = (noTasks.current ? form.current : controls.current)?.querySelector<HTMLElement>(FOCUSABLE);
      if (first) {
        const grid = form.current?.closest<HTMLElement>("[data-classifier]");
        if (grid && grid.getBoundingClientRect().top < 0) grid.scrollIntoView({ block: "start" });
        first.focus();
      } else if (tries++ < 120) frameId = requestAnimationFrame(focus);
    };
    focus();
    return () => cancelAnimationFrame(frameId);
  }, [focusFirst]);

  // Shortcuts: 1–9 choose the n-th answer of the step's question; Enter presses Done (or Next). Neither
  // while typing in a text field, in a dialog, with a modifier key, or on a control that takes the key itself.
  const onShortcut = useRef<(e: KeyboardEvent) => void>(() => {});
  onShortcut.current = (e: KeyboardEvent) => {
    if (!onTask || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTypingTarget(e.target)) return;
    const target = e.target instanceof Element ? e.target : null;
    if (target?.closest("dialog, [role=dialog]")) return;
    if (/^[1-9]$/.test(e.key)) {
      const key = keys.find((k) => workflow.tasks[k].type === "single" || workflow.tasks[k].type === "multiple");
      const n = Number(e.key) - 1;
      if (!key || n >= ((workflow.tasks[key] as { answers?: unknown[] }).answers?.length ?? 0)) return;
      e.preventDefault();
      if (workflow.tasks[key].type === "single") setValue(key, n);
      else {
        const chosen = (valueAt(key) as number[] | null) ?? [];
        setValue(key, chosen.includes(n) ? chosen.filter((x) => x !== n) : [...chosen, n]);
      }
    } else if (e.key === "Enter" && !e.shiftKey) {
      if (target?.closest("button, a, summary, svg, [role=button], [role=application]")) return;
      e.preventDefault();
      form.current?.requestSubmit();
    }
  };
  useEffect(() => {
    const listener = (e: KeyboardEvent) => onShortcut.current(e);
    document.addEventListener("keydown", listener);
    return () => document.removeEventListener("keydown", listener);
  }, []);

  const go = (to: string | null, back = false) => {
    if (back) {
      setStep(history[history.length - 1] ?? step);
      setHistory((h) => h.slice(0, -1));
    } else {
      setHistory((h) => [...h, step!]);
      setStep(to);
    }
    setTool(0);
    heading.current?.focus();
  };

  const taskArea = (
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
          if (!ready || save.isPending) return;
          if (next) go(next);
          else save.mutate();
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
              onChange={(v) => setValue(key, v)}
              tool={tool}
              onTool={setTool}
              frame={frame}
              textUrl={textUrl}
            />
          ))}
        </div>
        {save.isError && (
          <p role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-sm">
            Your classification was not saved: {(save.error as Error).message}. Your answers are kept; press Done to try again.
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          {history.length > 0 && (
            <button
              type="button"
              onClick={() => go(null, true)}
              className="rounded border border-gray-300 px-4 py-2 hover:bg-gray-100"
              disabled={save.isPending}
            >
              Back
            </button>
          )}
          <button
            type="submit"
            disabled={!ready || save.isPending}
            className="ml-auto rounded bg-brand-600 px-5 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-50"
          >
            {save.isPending ? "Saving…" : next ? "Next" : "Done"}
          </button>
        </div>
      </form>
    </>
  );

  // The subject in the classifier's grid; its task and its extras in the classifier's places for them
  // (they stay while subjects change), so the tools above the task need not be made again for each subject.
  return (
    <>
      <section aria-label="Subject" className="min-w-0 lg:col-start-1 lg:row-start-1">
        <SubjectBanners subject={subject} />
        <SubjectViewer
          locations={subject.locations}
          subjectLabel={`Subject ${subject.id}`}
          frame={frame}
          onFrame={setFrame}
          drawing={drawing}
          onDimensions={(f, d) => {
            dimensions.current[f] = d;
          }}
        />
      </section>
      {slots.side &&
        createPortal(
          <section
            aria-labelledby="task-heading"
            className="flex flex-col gap-3 rounded-lg border border-gray-200 bg-white p-3 sm:gap-4 sm:p-4"
          >
            {hasTutorial ? (
              <TaskTabs tab={tab} onTab={setTab}>
                {(which) =>
                  which === "task" ? (
                    taskArea
                  ) : (
                    <TutorialPanel
                      workflowId={workflow.id}
                      primaryLanguage={primaryLanguage}
                      language={language}
                      onDone={() => {
                        setTab("task");
                        document.getElementById(tabId("task"))?.focus();
                      }}
                    />
                  )
                }
              </TaskTabs>
            ) : (
              taskArea
            )}
          </section>,
          slots.side,
        )}
      {slots.below &&
        createPortal(
          <>
            <div className="flex flex-wrap gap-2">
              <FavouriteButton projectId={projectId} subjectId={subject.id} />
              <CollectButton projectId={projectId} subjectId={subject.id} />
            </div>
            <MetadataPanel metadata={subject.metadata ?? {}} />
          </>,
          slots.below,
        )}
    </>
  );
}

type Tab = "task" | "tutorial";
const TABS: { id: Tab; label: string }[] = [
  { id: "task", label: "Task" },
  { id: "tutorial", label: "Tutorial" },
];
const tabId = (t: Tab) => `classifier-tab-${t}`;

/**
 * The task column's tabs (the WAI-ARIA tabs pattern, activated on focus): the arrow keys, Home and End move
 * between them; each panel is labelled by its tab. The hidden panel stays mounted, so answers and the
 * tutorial's step are kept while the other is read.
 */
function TaskTabs({ tab, onTab, children }: { tab: Tab; onTab(t: Tab): void; children(t: Tab): ReactNode }) {
  const onKey = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    const i = TABS.findIndex((t) => t.id === tab);
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TABS.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const t = TABS[(to + TABS.length) % TABS.length].id;
    onTab(t);
    document.getElementById(tabId(t))?.focus();
  };
  return (
    <>
      <div role="tablist" aria-label="Task and tutorial" className="-mx-1 -mt-1 flex gap-1 border-b border-gray-200" onKeyDown={onKey}>
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={tabId(t.id)}
            aria-selected={tab === t.id}
            aria-controls={`${tabId(t.id)}-panel`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => onTab(t.id)}
            className={
              "-mb-px border-b-2 px-3 py-1.5 text-sm font-semibold focus-visible:outline focus-visible:outline-2 " +
              "focus-visible:outline-brand-600 " +
              (tab === t.id ? "border-brand-600 text-brand-700" : "border-transparent text-gray-600 hover:text-gray-900")
            }
          >
            {t.label}
          </button>
        ))}
      </div>
      {TABS.map((t) => (
        <div
          key={t.id}
          role="tabpanel"
          id={`${tabId(t.id)}-panel`}
          aria-labelledby={tabId(t.id)}
          hidden={tab !== t.id}
          className="flex flex-col gap-3 sm:gap-4"
        >
          {children(t.id)}
        </div>
      ))}
    </>
  );
}

const FOCUSABLE = "input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), [tabindex='0']";

/** Unsupported task types are skipped rather than sent with a made-up value. */
const isShown = (task: Task | undefined) => !!task && RECORDED_TASKS.has(task.type);
