// Builders for the engine's unit tests: plain classification data and extract records.
import type { ClassificationData, ExtractRecord } from "./types";

export function classification(overrides: Partial<ClassificationData> = {}): ClassificationData {
  return {
    id: 100,
    project_id: 1,
    workflow_id: 12,
    subject_id: 7,
    user_id: 3,
    workflow_version: "2.1",
    annotations: {},
    metadata: { user_language: "en", workflow_version: "2.1" },
    subject: {
      id: 7,
      metadata: { name: "alpha", size: "5" },
      created_at: "2024-01-01T00:00:00.000Z",
      updated_at: "2024-01-02T00:00:00.000Z",
    },
    ...overrides,
  };
}

/** `classification(…)` with annotations for one task. */
export function answered(task: string, ...values: unknown[]): ClassificationData {
  return classification({ annotations: { [task]: values.map((value) => ({ task, value })) } });
}

let nextId = 1;
/**
 * An extract; classificationAt defaults to a time derived from classificationId so id order is time order.
 */
export function extract(e: Partial<ExtractRecord> & { classificationId: number }): ExtractRecord {
  return {
    id: e.id ?? nextId++,
    classificationAt: e.classificationAt ?? new Date(Date.UTC(2024, 0, 1) + e.classificationId * 60_000),
    subjectId: 7,
    userId: null,
    workflowId: 12,
    extractorKey: "q",
    data: {},
    ...e,
  };
}
