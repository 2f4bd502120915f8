import type { Tasks } from "@/lib/classifier/task-flow";

// What the classifier's parts share: a subject from the queue (its wire type) and the workflow being classified.

export type { QueuedSubject } from "@/components/ui/wire-types";

export interface ClassifierWorkflow {
  id: string;
  displayName: string;
  version: string;
  tasks: Tasks;
  firstTask: string;
}
