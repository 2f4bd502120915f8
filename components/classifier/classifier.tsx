"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { apiGet } from "@/components/ui/api-client";
import { PendingProvider, PendingStatus, usePending } from "./pending-classifications";
import {
  classificationBody,
  emptyValue,
  isAnswered,
  nextTask,
  stepTasks,
  unsupportedTasks,
  type Mark,
  type SurveyItem,
  type SurveyTask,
  type Task,
  type Tasks,
  type TaskValue,
  type Tool,
} from "@/lib/classifier/task-flow";
import { SubjectViewer, type Dimensions } from "./subject-viewer";
import { SurveyTaskView } from "./survey-task";

interface QueuedSubject {
  id: string;
  locations: Record<string, string>[];
  metadata: Record<string, unknown>;
  retired: boolean;
  already_seen: boolean;
  finished_workflow: boolean;
  user_has_finished_workflow: boolean;
  selection_state: string;
}

export interface ClassifierWorkflow {
  id: string;
  displayName: string;
  version: string;
  tasks: Tasks;
  firstTask: string;
}

const COLORS = ["#e11d48", "#2563eb", "#16a34a", "#d97706", "#9333ea", "#0891b2"];

/**
 * The volunteer classifier: subjects from the workflow's queue, its tasks one step at a time (branching on
 * answers, combo tasks together), and the classification posted when the volunteer is done. The next
 * subjects are fetched before they are needed; a failed save keeps the answers and offers a retry.
 */
export function Classifier(props: { projectId: string; workflow: ClassifierWorkflow }) {
  return (
    <PendingProvider>
      <ClassifierQueue {...props} />
    </PendingProvider>
  );
}

function ClassifierQueue({ projectId, workflow }: { projectId: string; workflow: ClassifierWorkflow }) {
  const [queue, setQueue] = useState<QueuedSubject[]>([]);
  const [round, setRound] = useState(0);
  const [exhausted, setExhausted] = useState(false);
  const seen = useRef(new Set<string>());
  const fetched = useQuery({
    queryKey: ["queued", workflow.id, round],
    queryFn: () => apiGet<{ subjects: QueuedSubject[] }>(`/subjects/queued?workflow_id=${workflow.id}`),
    staleTime: Infinity,
    gcTime: 0,
    retry: 2,
  });
  useEffect(() => {
    if (!fetched.data) return;
    const fresh = fetched.data.subjects.filter((s) => !seen.current.has(s.id));
    fresh.forEach((s) => seen.current.add(s.id));
    if (!fresh.length) setExhausted(true);
    setQueue((q) => [...q, ...fresh]);
  }, [fetched.data]);
  const subject = queue[0];
  // Top up before the volunteer reaches the end of what is loaded.
  useEffect(() => {
    if (queue.length <= 2 && !fetched.isFetching && fetched.data && !exhausted) setRound((r) => r + 1);
  }, [queue.length, fetched.isFetching, fetched.data, exhausted]);

  const [saved, setSaved] = useState(0);
  const { stored } = usePending();
  const unsupported = useMemo(() => unsupportedTasks(workflow.tasks, workflow.firstTask), [workflow]);

  let body;
  if (fetched.isError && !subject)
    body = (
      <div role="alert" className="rounded border border-red-300 bg-red-50 p-4">
        <p>Subjects could not be loaded: {(fetched.error as Error).message}</p>
        <button type="button" className="mt-2 rounded bg-brand-600 px-4 py-2 text-white" onClick={() => fetched.refetch()}>
          Try again
        </button>
      </div>
    );
  else if (!subject)
    body = exhausted ? (
      <p className="rounded border border-gray-200 bg-white p-6">There is nothing left to classify in this workflow. Thank you!</p>
    ) : (
      <p role="status" aria-live="polite" className="animate-pulse rounded border border-gray-200 bg-white p-6 text-gray-600">
        Loading subjects…
      </p>
    );
  else
    body = (
      <SubjectClassification
        key={subject.id}
        projectId={projectId}
        workflow={workflow}
        subject={subject}
        onDone={() => {
          setSaved((n) => n + 1);
          setQueue((q) => q.slice(1));
        }}
      />
    );

  return (
    <div className="flex flex-col gap-3">
      {unsupported.length > 0 && (
        <p role="note" className="rounded border border-amber-300 bg-amber-50 p-3 text-sm">
          Some of this workflow&apos;s tasks ({unsupported.join(", ")}) are not supported by the web classifier yet; they are skipped.
        </p>
      )}
      <p role="status" aria-live="polite" className="sr-only" data-testid="saved-count">
        {stored ? `Classification saved. ${stored} classified in this session.` : ""}
      </p>
      <PendingStatus />
      {body}
      {saved > 0 && <p className="text-sm text-gray-600">{saved} classified in this session.</p>}
    </div>
  );
}

function SubjectClassification({ projectId, workflow, subject, onDone }: { projectId: string; workflow: ClassifierWorkflow; subject: QueuedSubject; onDone(): void }) {
  const startedAt = useRef(new Date());
  const [step, setStep] = useState<string | null>(workflow.tasks[workflow.firstTask] ? workflow.firstTask : null);
  const [history, setHistory] = useState<string[]>([]);
  const [values, setValues] = useState<Record<string, TaskValue>>({});
  const [frame, setFrame] = useState(0);
  const [tool, setTool] = useState(0);
  const dimensions = useRef<(Dimensions | null)[]>(subject.locations.map(() => null));
  const heading = useRef<HTMLHeadingElement>(null);

  const keys = step ? stepTasks(workflow.tasks, step) : [];
  const valueOf = (key: string) => (key in values ? values[key] : emptyValue(workflow.tasks[key]));
  const setValue = (key: string, v: TaskValue) => setValues((all) => ({ ...all, [key]: v }));
  const ready = keys.every((k) => isAnswered(workflow.tasks[k], valueOf(k)));
  // A combo branches as a whole; a single question in a step decides where it goes.
  const next = step ? nextTask(workflow.tasks, step, keys.length === 1 ? valueOf(keys[0]) : null) : null;

  const pending = usePending();
  // Done stores the classification in the pending queue (sent in the background) and moves on at once.
  const save = useMutation({
    mutationFn: () => {
      const answered = [...history, ...(step ? [step] : [])].flatMap((s) => stepTasks(workflow.tasks, s)).map((key) => ({ key, value: valueOf(key) }));
      return pending.submit({
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
        }),
      });
    },
    onSuccess: onDone,
  });

  const drawingKey = keys.find((k) => workflow.tasks[k].type === "drawing");
  const drawingTask = drawingKey ? (workflow.tasks[drawingKey] as { tools: Tool[] }) : null;
  const chosenTool = drawingTask?.tools[tool];
  const drawing =
    drawingKey && chosenTool && (chosenTool.type === "point" || chosenTool.type === "rectangle")
      ? {
          tool,
          toolType: chosenTool.type as "point" | "rectangle",
          label: chosenTool.label ?? chosenTool.type,
          color: chosenTool.color ?? COLORS[tool % COLORS.length],
          marks: valueOf(drawingKey) as Mark[],
          onAdd: (m: Mark) => setValue(drawingKey, [...(valueOf(drawingKey) as Mark[]), m]),
        }
      : null;

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

  const banner = subject.retired ? "This subject is already retired: your classification is still welcome." : subject.already_seen ? "You have seen this subject before." : null;

  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(18rem,2fr)]">
      <section aria-label="Subject">
        {banner && (
          <p role="note" className="mb-2 rounded bg-gray-200 px-3 py-1 text-sm">
            {banner}
          </p>
        )}
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
      <section aria-labelledby="task-heading" className="flex flex-col gap-4 rounded-lg border border-gray-200 bg-white p-4">
        <h2 id="task-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
          {workflow.displayName}
        </h2>
        <form
          className="flex flex-col gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (!ready || save.isPending) return;
            if (next) go(next);
            else save.mutate();
          }}
        >
          {keys.length === 0 && <p>This workflow has no tasks: press Done to record that you saw this subject.</p>}
          {keys.map((key) => (
            <TaskView
              key={key}
              taskKey={key}
              task={workflow.tasks[key]}
              value={valueOf(key)}
              onChange={(v) => setValue(key, v)}
              tool={tool}
              onTool={setTool}
              frame={frame}
            />
          ))}
          {save.isError && (
            <p role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-sm">
              Your classification was not saved: {(save.error as Error).message}. Your answers are kept; press Done to try again.
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            {history.length > 0 && (
              <button type="button" onClick={() => go(null, true)} className="rounded border border-gray-300 px-4 py-2 hover:bg-gray-100" disabled={save.isPending}>
                Back
              </button>
            )}
            <button type="submit" disabled={!ready || save.isPending} className="ml-auto rounded bg-brand-600 px-5 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-50">
              {save.isPending ? "Saving…" : next ? "Next" : "Done"}
            </button>
          </div>
        </form>
      </section>
    </div>
  );
}

/** Unsupported task types are skipped rather than sent with a made-up value. */
const isShown = (task: Task | undefined) => !!task && ["single", "multiple", "text", "drawing", "survey"].includes(task.type);

function TaskView({
  taskKey,
  task,
  value,
  onChange,
  tool,
  onTool,
  frame,
}: {
  taskKey: string;
  task: Task;
  value: TaskValue;
  onChange(v: TaskValue): void;
  tool: number;
  onTool(i: number): void;
  frame: number;
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
  if (task.type === "drawing") {
    const t = task as { instruction?: string; tools: Tool[] };
    const marks = (value as Mark[]) ?? [];
    return (
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 font-medium">{t.instruction || "Mark the subject"}</legend>
        {t.tools.map((tl, i) => (
          <label key={i} className="flex items-center gap-3 rounded border border-gray-300 px-3 py-2 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
            <input type="radio" name={`${id}-tool`} checked={tool === i} onChange={() => onTool(i)} disabled={tl.type !== "point" && tl.type !== "rectangle"} />
            <span aria-hidden className="inline-block h-3 w-3 rounded-full" style={{ background: tl.color ?? COLORS[i % COLORS.length] }} />
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
                  {t.tools[m.tool]?.label ?? m.toolType} at {Math.round(m.x)}, {Math.round(m.y)}
                  {m.toolType === "rectangle" ? ` (${Math.round(m.width)} × ${Math.round(m.height)})` : ""}
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
