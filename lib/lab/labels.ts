// What the lab shows for each internal name in its menus: a human label, once, here. The internal name
// (the engine's `reduce_by_subject`, a drawing tool's `freehandLine`) stays the value saved and is shown in
// small print beside the label (components/ui/controls.tsx Select's `showValue`). Every list of the engine
// builder (lib/lab/engine-options.ts, itself the engine's registries) must have a label for each of its
// names: the types below require it, and lib/lab/labels.test.ts checks it at run time too. Task types carry
// their labels in their folders (lib/tasks/<type>/), effects in engine-options.ts, comparisons in
// condition-model.ts.
import type { DRAWING_TOOL_TYPES } from "@/lib/tasks/drawing";
import { ENGINE_OPTIONS } from "./engine-options";

type Labels<T extends readonly string[]> = Record<T[number], string>;
type EngineLabels = { [K in keyof typeof ENGINE_OPTIONS]: Labels<(typeof ENGINE_OPTIONS)[K]> };

export const ENGINE_LABELS: EngineLabels = {
  extractorTypes: {
    blank: "Whether anything was answered",
    question: "Question answers",
    pluck_field: "Fields of the subject or classification",
    survey: "Survey identifications",
    shape: "Drawn shapes",
    external: "An external service",
  },
  reducerTypes: {
    consensus: "Consensus (the most common answer)",
    count: "Count classifications",
    stats: "Count each answer",
    first_extract: "The first extract",
    summary_stats: "Summary statistics",
    unique_count: "Count distinct values",
    rectangle: "Cluster rectangles",
    queue: "Send to a queue",
    external: "An external service",
  },
  statuses: { active: "Active", paused: "Paused", halted: "Halted" },
  rulesApplied: {
    all_matching_rules: "Every rule that matches",
    first_matching_rule: "Only the first rule that matches",
    no_rules: "No rules (reduce only)",
  },
  ruleTopics: { subject: "A subject", user: "A volunteer" },
  ifMissing: { error: "Report an error", ignore: "Ignore the classification", reject: "Reject the classification" },
  shapes: { point: "Point", rectangle: "Rectangle", circle: "Circle", ellipse: "Ellipse", line: "Line", polygon: "Polygon" },
  reducerTopics: { reduce_by_subject: "Each subject", reduce_by_user: "Each volunteer" },
  reductionModes: { default_reduction: "All extracts again each time", running_reduction: "Running (only the new extracts)" },
  repeatedClassifications: {
    keep_first: "Keep a volunteer's first",
    keep_last: "Keep a volunteer's last",
    keep_all: "Keep them all",
  },
  trainingBehaviors: {
    ignore_training: "Leave out training subjects",
    training_only: "Only training subjects",
    experiment_only: "Only real (non-training) subjects",
  },
  emptyExtracts: { keep_all: "Keep them", ignore_empty: "Leave them out" },
  groupingIfMissing: { ignore: "Leave it out", error: "Report an error", group_missing: "Group it as “missing”" },
  summaryOperations: {
    count: "Count",
    min: "Minimum",
    max: "Maximum",
    sum: "Sum",
    mean: "Mean",
    variance: "Variance",
    stdev: "Standard deviation",
    median: "Median",
    mode: "Mode",
  },
  retirementReasons: {
    blank: "Blank",
    consensus: "Consensus",
    other: "Other",
    classification_count: "Enough classifications",
    flagged: "Flagged",
    nothing_here: "Nothing here",
    human: "Decided by a person",
  },
};

export const TOOL_LABELS: Labels<typeof DRAWING_TOOL_TYPES> = {
  point: "Point",
  rectangle: "Rectangle",
  circle: "Circle",
  ellipse: "Ellipse",
  line: "Line",
  polygon: "Polygon",
  polyline: "Open line of segments",
  freehandLine: "Freehand line",
  transcriptionLine: "Transcription line",
  column: "Column",
};

/** A list's options as label and value, for a Select; a name without a label (a stored value no list has) shows as itself. */
export function labelled(values: readonly string[], labels: Record<string, string>): { value: string; label: string }[] {
  return values.map((value) => ({ value, label: Object.hasOwn(labels, value) ? labels[value] : value }));
}

/** The engine builder's options of one list, labelled. */
export const engineOptions = (list: keyof typeof ENGINE_OPTIONS) => labelled(ENGINE_OPTIONS[list], ENGINE_LABELS[list]);

/** The label of one name of an engine list (the name itself if it has none). */
export const engineLabel = (list: keyof typeof ENGINE_OPTIONS, value: string) =>
  Object.hasOwn(ENGINE_LABELS[list], value) ? (ENGINE_LABELS[list] as Record<string, string>)[value] : value;
