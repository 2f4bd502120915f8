// Plain data the engine's pure stages work on. No Prisma types: the pipeline maps rows to these.
import { isScalarText } from "@/lib/text/scalar-text";

/** One annotation as the classifier submits it. `value` varies by task type. */
export interface Annotation {
  task: string;
  value: unknown;
  [extra: string]: unknown;
}

/** Annotations grouped by task key, as the contract sends them to extractors. */
export type GroupedAnnotations = Record<string, Annotation[]>;

export type SubjectMetadata = Record<string, unknown>;

/** The contract's "classification data sent to external extractors and reducers". */
export interface ClassificationData {
  id: number;
  project_id: number;
  workflow_id: number;
  subject_id: number;
  user_id: number | null;
  workflow_version: string;
  annotations: GroupedAnnotations;
  metadata: Record<string, unknown>;
  subject: { id: number; metadata: SubjectMetadata; created_at: string | null; updated_at: string | null };
}

/** An extract as the engine stores it (camelCase; the wire uses snake_case). */
export interface ExtractRecord {
  id: number;
  classificationId: number;
  classificationAt: Date | string;
  subjectId: number;
  userId: number | null;
  workflowId: number;
  extractorKey: string;
  data: Record<string, unknown> | null;
}

function isAnnotation(a: unknown): a is Annotation {
  return !!a && typeof a === "object" && !Array.isArray(a) && "task" in a;
}

/**
 * Annotations in the grouped form `{T0: [{task, value}], ...}`, from either the stored array of
 * `{task, value}` or the already-grouped object. Entries without a `task` key are dropped; a single
 * annotation object under a task key is wrapped in an array. Never mutates its input.
 */
export function groupAnnotations(annotations: unknown): GroupedAnnotations {
  // Task keys come from volunteers' classifications: without a prototype, `constructor` or `__proto__`
  // is a task like any other (on a plain object it found Object's own and threw).
  const grouped: GroupedAnnotations = Object.create(null);
  if (Array.isArray(annotations)) {
    for (const a of annotations) {
      // (a task that is no string or number names no task: String() of a client's object can throw)
      if (!isAnnotation(a) || !isScalarText(a.task)) continue;
      const key = String(a.task);
      (grouped[key] ??= []).push(a);
    }
    return grouped;
  }
  if (annotations && typeof annotations === "object") {
    for (const [key, list] of Object.entries(annotations as Record<string, unknown>)) {
      if (Array.isArray(list)) grouped[key] = list.filter(isAnnotation).map((a) => a);
      else if (isAnnotation(list)) grouped[key] = [list];
      else if (list !== null && list !== undefined) grouped[key] = [{ task: key, value: list }];
    }
  }
  return grouped;
}

export const timeOf = (at: Date | string): number => (at instanceof Date ? at.getTime() : Date.parse(at));
