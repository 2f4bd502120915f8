// The workflow's branching as an editable graph, free of React: where each task's node sits (columns by
// steps from the first task, stacked by their heights), the outlets a link is dragged from (a single
// question's answers, or a task's own `next`), the links drawn, and what dragging an outlet onto a task does
// to the drafts. The lab draws it with React Flow (components/lab/branching-graph.tsx).
import { taskType } from "@/lib/tasks/registry";
import { hasOwnNext, taskDepths, taskLinks, unreachableTasks, type TaskDraft } from "./task-editing";

/** The node every task without a next task leads to. */
export const END_NODE = "__end";

export const NODE_WIDTH = 200;
const HEADER = 48;
const OUTLET = 24;
const GAP_X = 90;
const GAP_Y = 30;

export interface Outlet {
  /** `answer-<index>` or `next`. */
  id: string;
  label: string;
  /** The task it leads to; "" for the end. */
  to: string;
}

export interface GraphNode {
  id: string;
  x: number;
  y: number;
  height: number;
  type: string;
  outlets: Outlet[];
  first: boolean;
  unreachable: boolean;
}

export interface GraphEdge {
  id: string;
  source: string;
  sourceHandle: string | null;
  target: string;
  label: string;
  /** A combo's member or a shortcut: drawn, not dragged. */
  fixed: boolean;
}

/** Where a task's links are dragged from: each answer of a single question, or its own `next`. */
export function outletsOf(draft: TaskDraft): Outlet[] {
  const { task } = draft;
  if (!hasOwnNext(task) && Array.isArray(task.answers) && taskType(task.type)?.links)
    return (task.answers as { label?: string; next?: string | null }[]).map((a, k) => ({
      id: `answer-${k}`,
      label: a.label || `Answer ${k + 1}`,
      to: a.next || "",
    }));
  return hasOwnNext(task) ? [{ id: "next", label: "then", to: String(task.next || "") }] : [];
}

export const nodeHeight = (outlets: number) => HEADER + outlets * OUTLET;
/** The vertical centre of an outlet in its node (for its handle). */
export const outletTop = (index: number) => HEADER + index * OUTLET + OUTLET / 2;

/** The graph's nodes (tasks, then the end) and links, laid out left to right. */
export function workflowGraph(drafts: TaskDraft[]): { nodes: GraphNode[]; edges: GraphEdge[]; width: number; height: number } {
  const depth = taskDepths(drafts);
  const lost = new Set(unreachableTasks(drafts));
  const columnY = new Map<number, number>();
  const nodes: GraphNode[] = drafts.map((d, i) => {
    const col = depth.get(d.key) ?? 0;
    const outlets = outletsOf(d);
    const height = nodeHeight(outlets.length);
    const y = columnY.get(col) ?? 0;
    columnY.set(col, y + height + GAP_Y);
    return {
      id: d.key,
      x: col * (NODE_WIDTH + GAP_X),
      y,
      height,
      type: String(d.task.type),
      outlets,
      first: i === 0,
      unreachable: lost.has(d.key),
    };
  });
  const endCol = Math.max(0, ...nodes.map((n) => n.x / (NODE_WIDTH + GAP_X))) + 1;
  const tallest = Math.max(HEADER, ...[...columnY.values()].map((y) => y - GAP_Y));
  nodes.push({
    id: END_NODE,
    x: endCol * (NODE_WIDTH + GAP_X),
    y: Math.max(0, (tallest - HEADER) / 2),
    height: HEADER,
    type: "",
    outlets: [],
    first: false,
    unreachable: false,
  });
  const edges: GraphEdge[] = [];
  for (const n of nodes)
    for (const o of n.outlets)
      edges.push({ id: `${n.id}:${o.id}`, source: n.id, sourceHandle: o.id, target: o.to || END_NODE, label: "", fixed: false });
  for (const l of taskLinks(drafts))
    if ((l.label === "shows" || l.label === "shortcut") && l.to)
      edges.push({ id: `${l.from}:${l.label}:${l.to}`, source: l.from, sourceHandle: null, target: l.to, label: l.label, fixed: true });
  return {
    nodes,
    edges,
    width: (endCol + 1) * (NODE_WIDTH + GAP_X) - GAP_X,
    height: tallest,
  };
}

/**
 * Dragging an outlet of `from` onto `to` (a task's key, or END_NODE): the answer or task now leads there.
 * Null when the link cannot be made (an unknown task or outlet, or a task leading to itself).
 */
export function connectTasks(drafts: TaskDraft[], from: string, outlet: string, to: string): TaskDraft[] | null {
  const target = to === END_NODE ? "" : to;
  if (target === from || (target && !drafts.some((d) => d.key === target))) return null;
  const i = drafts.findIndex((d) => d.key === from);
  if (i < 0 || !outletsOf(drafts[i]).some((o) => o.id === outlet)) return null;
  const task = { ...drafts[i].task };
  if (outlet === "next") task.next = target;
  else {
    const k = Number(outlet.slice("answer-".length));
    task.answers = (task.answers as { next?: string }[]).map((a, j) => (j === k ? { ...a, next: target } : a));
  }
  return drafts.map((d, j) => (j === i ? { ...d, task } : d));
}
