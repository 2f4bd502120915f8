import type { Tasks } from "@/lib/classifier/task-flow";

// What the classifier's parts share: a subject from the queue and the workflow being classified.

export interface QueuedSubject {
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
