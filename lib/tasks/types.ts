// The shapes every task type shares, and what one task type is: the pure parts of its folder
// (lib/tasks/<type>/), which the classifier's flow, the lab's editor and the engine's builder read through
// the registry (lib/tasks/registry.ts) instead of switching on the type. Browser-safe: no zod, no server.
import type { Mark } from "./drawing/marks";

export type { Mark };

export interface Answer {
  label: string;
  next?: string | null;
}

export interface Tool {
  type: string;
  label?: string;
  color?: string;
  /** Subtasks asked about each mark of this tool (questions or text); answers go in the mark's `details`. */
  details?: Task[];
}

/** A highlighted span of a text subject (FEM tasks/experimental/highlighter/models/HighlighterAnnotation.js). */
export interface Highlight {
  start: number;
  end: number;
  text: string;
  labelInformation: { color: string; label: string };
}

/** One identification in a survey task, as the established classifier records it. */
export interface SurveyItem {
  choice: string;
  answers: Record<string, string | string[]>;
  filters: Record<string, string>;
}

// Survey tasks: choices (species, say) with characteristics to filter them by, and questions asked about
// each identification (how many, what are they doing).
export interface SurveyTask {
  type: "survey";
  choices: Record<
    string,
    {
      label: string;
      characteristics?: Record<string, string[]>;
      noQuestions?: boolean;
      description?: string;
      images?: string[];
      confusions?: Record<string, string>;
      confusionsOrder?: string[];
    }
  >;
  /** Image file names of the choices, to their URLs. */
  images?: Record<string, string>;
  choicesOrder?: string[];
  characteristics?: Record<string, { label: string; values: Record<string, { label: string }>; valuesOrder?: string[] }>;
  characteristicsOrder?: string[];
  questions?: Record<
    string,
    { label: string; multiple?: boolean; required?: boolean; answers: Record<string, { label: string }>; answersOrder?: string[] }
  >;
  questionsOrder?: string[];
}

export type Task =
  | { type: "single" | "multiple"; question: string; answers: Answer[]; help?: string; required?: boolean }
  | { type: "text"; instruction?: string; help?: string; next?: string | null; required?: boolean }
  | { type: "drawing"; instruction?: string; tools: Tool[]; help?: string; next?: string | null; required?: boolean }
  | { type: "combo"; tasks: string[]; next?: string | null }
  | (SurveyTask & { instruction?: string; next?: string | null })
  | { type: string; next?: string | null; [key: string]: unknown };

export type Tasks = Record<string, Task>;

/**
 * What a volunteer has answered for one task: an answer index (single), indices (multiple, shortcut), a
 * number (slider), text, marks, identifications or highlights.
 */
export type TaskValue = number | number[] | string | Mark[] | SurveyItem[] | Highlight[] | null;

/** A task as the lab edits it: the API's own definition, every field kept (including ones no editor shows). */
// biome-ignore lint/suspicious/noExplicitAny: a task of any type as the API's JSON (with fields the editor doesn't show), so it round-trips
export type TaskDef = Record<string, any>;

/** A link of the workflow's graph: an answer's, a combo's member, a shortcut, or `next` (to null: the end). */
export interface TaskLink {
  from: string;
  to: string | null;
  label: string;
}

/**
 * One task type's pure parts. Only `label`, `template` and `emptyValue` are required; every other part
 * has the default a plain task (text-like: optional, recorded as answered, leading on through `next`) needs.
 */
export interface TaskTypeDef {
  /** The lab's name for the type, in its "add a task" menu. */
  label: string;
  /** The lab: a new task of this type, as the API takes it, with what it needs filled in left empty. */
  template(): TaskDef;
  /** The classifier: the value before the volunteer answers. */
  emptyValue(task: Task): TaskValue;
  /** The classifier: whether the volunteer may move on (default: always). */
  isAnswered?(task: Task, value: TaskValue): boolean;
  /** Whether its answers become annotations at all (default: yes; a combo is recorded as its members). */
  recorded?: boolean;
  /** The classifier: whether this answer becomes an annotation (default: yes; a shortcut only when an option was chosen). */
  isRecorded?(value: TaskValue): boolean;
  /** The annotation's value (default: the value as answered). */
  annotationValue?(task: Task, value: TaskValue): unknown;
  /** The classifier: whether this answer ends the classification (a shortcut's "nothing here"). */
  endsClassification?(value: TaskValue): boolean;
  /** The classifier: whether it can show this task (default: yes; a drawing task with a tool it cannot draw: no). */
  isSupported?(task: Task): boolean;
  /** The tasks shown on the same page instead of this one (a combo's members). */
  members?(task: Task): string[];
  /** Where the volunteer goes after answering, when it is not the task's `next` (a single question's answer). */
  nextFor?(task: Task, value: TaskValue): unknown;
  /** The tasks it may lead to besides `next` and a shortcut (answers' `next`, a combo's members). */
  branches?(task: Task): (string | null | undefined)[];
  /** Whether it leads on through a `next` of its own (default: yes; a single question leads through its answers). */
  ownNext?: boolean;
  /** The lab's graph: links from this task besides its shortcut and `next`. */
  links?(key: string, task: TaskDef): TaskLink[];
  /** The lab: this task without what refers to a removed task (a combo forgets a member). */
  forget?(task: TaskDef, removed: string): TaskDef;
  /**
   * The engine: the extractor that reads this type's annotations, as the builder proposes it for a task of
   * this type (none: the researcher picks one, pluck_field or external). Named by its engine type; the
   * task types stay below the engine, and registry.test.ts holds every proposal to what the engine accepts.
   */
  extractor?: { type: string } & Record<string, unknown>;
}
