"use client";
import { type KeyboardEvent as ReactKeyboardEvent, type ReactNode, useReducer, useRef } from "react";
import { createPortal } from "react-dom";
import { usePending } from "./pending-classifications";
import { evaluateFeedback, type FeedbackResult } from "@/lib/classifier/feedback";
import { answeredTasks, startSubject, stepOf, subjectReducer, type TaskTab } from "@/lib/classifier/subject-session";
import { useAction } from "@/components/ui/use-action";
import { SubjectBanners } from "./volunteer/subject-banners";
import { lazyPart } from "./lazy-part";
import { classificationBody, RECORDED_TASKS, unsupportedTasks, type Mark, type Task, type Tool } from "@/lib/classifier/task-flow";
import { frameMedia, SubjectViewer, type Dimensions, type DrawingState } from "./subject-viewer";
import { TaskForm } from "./task-form";
import { MetadataPanel } from "./viewer/metadata-panel";
import type { ClassifierWorkflow, QueuedSubject } from "./types";
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
  const [session, dispatch] = useReducer(subjectReducer, undefined, () => startSubject(workflow.tasks, workflow.firstTask));
  const step = stepOf(workflow.tasks, session);
  const { frame, tool, tab } = session;
  const dimensions = useRef<(Dimensions | null)[]>(subject.locations.map(() => null));
  // With a tutorial, the task column has two tabs, "Task" and "Tutorial" (the tutorial read inline).
  const hasTutorial = !!useWorkflowTutorial(workflow.id, "tutorial", primaryLanguage).data;
  const onTask = !hasTutorial || tab === "task";
  const textUrl = subject.locations.map(frameMedia).find(([mime]) => mime.startsWith("text/"))?.[1] ?? null;

  const pending = usePending();
  // Done stores the classification in the pending queue (sent in the background) and moves on at once.
  const save = useAction();
  const done = () =>
    save.run(async () => {
      const answered = answeredTasks(workflow.tasks, session);
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
      onDone(feedback);
    });

  const drawingKey = step.keys.find((k) => workflow.tasks[k].type === "drawing");
  const drawingTask = drawingKey ? (workflow.tasks[drawingKey] as { tools: Tool[] }) : null;
  const drawing: DrawingState | null =
    drawingKey && drawingTask?.tools[tool]
      ? {
          tools: drawingTask.tools,
          tool,
          marks: step.valueAt(drawingKey) as Mark[],
          onChange: (marks: Mark[]) => dispatch({ type: "answer", key: drawingKey, value: marks }),
        }
      : null;

  const taskArea = (
    <TaskForm
      workflow={workflow}
      session={session}
      step={step}
      dispatch={dispatch}
      textUrl={textUrl}
      saving={save.busy}
      error={save.outcome?.kind === "error" ? save.outcome.text : null}
      focusFirst={focusFirst}
      active={onTask}
      onDone={() => void done()}
    />
  );
  const setTab = (t: TaskTab) => dispatch({ type: "tab", tab: t });

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
          onFrame={(f) => dispatch({ type: "frame", frame: f })}
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

const TABS: { id: TaskTab; label: string }[] = [
  { id: "task", label: "Task" },
  { id: "tutorial", label: "Tutorial" },
];
const tabId = (t: TaskTab) => `classifier-tab-${t}`;

/**
 * The task column's tabs (the WAI-ARIA tabs pattern, activated on focus): the arrow keys, Home and End move
 * between them; each panel is labelled by its tab. The hidden panel stays mounted, so answers and the
 * tutorial's step are kept while the other is read.
 */
function TaskTabs({ tab, onTab, children }: { tab: TaskTab; onTab(t: TaskTab): void; children(t: TaskTab): ReactNode }) {
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

/** Unsupported task types are skipped rather than sent with a made-up value. */
const isShown = (task: Task | undefined) => !!task && RECORDED_TASKS.has(task.type);
