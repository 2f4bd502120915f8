"use client";
import "@xyflow/react/dist/style.css";
import { Controls, Handle, Position, ReactFlow, ReactFlowProvider, type Edge, type Node, type NodeProps } from "@xyflow/react";
import { useEffect, useMemo, useState } from "react";
import { TASK_TYPES, unreachableTasks, type TaskDraft } from "@/lib/lab/task-editing";
import { taskText } from "@/lib/lab/task-names";
import { AddMenu } from "./add-menu";
import { connectTasks, END_NODE, NODE_WIDTH, outletTop, workflowGraph, type GraphEdge, type GraphNode } from "@/lib/lab/workflow-graph";
import { taskType } from "@/lib/tasks/registry";
import { CANVAS_PROPS, canvasKeys, FitOnChange, FOCUS_RING, graphHeight, linkLook, SelectedLinkBar, useSelectedLink } from "./graph-fit";

type TaskNodeData = GraphNode & Record<string, unknown> & { name: string; text: string; selected: boolean; names: Record<string, string> };

function TaskNode({ data }: NodeProps<Node<TaskNodeData>>) {
  if (data.id === END_NODE)
    return (
      <div
        className="flex h-12 items-center justify-center rounded-full border border-gray-500 bg-gray-100 text-sm"
        style={{ width: NODE_WIDTH }}
      >
        <Handle type="target" position={Position.Left} className="!h-5 !w-3 !rounded-sm !bg-gray-600" />
        End
      </div>
    );
  return (
    <div
      className={`rounded-md border text-left text-xs ${data.unreachable ? "border-amber-600 bg-amber-50" : "border-emerald-700 bg-emerald-50"} ${data.selected ? "ring-3 ring-brand-600" : ""}`}
      style={{ width: NODE_WIDTH, height: data.height }}
      title={`Key ${data.id} (${data.type})`}
    >
      <Handle type="target" position={Position.Left} style={{ top: 24 }} className="!h-6 !w-3 !rounded-sm !bg-gray-600" />
      <div className="flex h-12 flex-col justify-center px-2">
        <span className="flex min-w-0 items-baseline justify-between gap-1">
          <span className="shrink-0 whitespace-nowrap text-sm font-semibold">
            {data.name}
            {data.first ? " (first)" : ""}
          </span>
          <span className="min-w-0 truncate text-gray-600">{taskType(data.type)?.label ?? data.type}</span>
        </span>
        <span className="truncate text-gray-800">{data.text || "(no text yet)"}</span>
      </div>
      {data.outlets.map((o, k) => (
        <div key={o.id} className="flex h-6 items-center justify-between gap-1 border-t border-emerald-700/20 px-2">
          <span className="truncate">{o.label}</span>
          <span className="shrink-0 text-gray-600">→ {o.to ? (data.names[o.to] ?? o.to) : "end"}</span>
          <Handle type="source" id={o.id} position={Position.Right} style={{ top: outletTop(k) }} className="!h-4 !w-4 !bg-brand-600" />
        </div>
      ))}
    </div>
  );
}

const NODE_TYPES = { task: TaskNode };

/**
 * The workflow's branching, where it is built: each task a node (a single question's answers and a task's
 * `next` are its outlets), links dragged from an outlet onto a task (or End) to set where it leads, tasks
 * added here, a node's form opened by a click or Enter, a task or a link removed with Delete (after a
 * confirmation; a link, selected by a click or Enter, also with its "Remove link" button: the answer or task
 * then leads to the end, as choosing "the end" in its form does).
 * The keyboard alternative to dragging is each answer's "leads to" select in the task's form; the links are
 * also listed as text. Fits itself to view on every change; zoom with the controls.
 */
export function BranchingGraph({
  drafts,
  selected: selectedTask,
  onChange,
  onOpen,
  onAdd,
  onRemove,
}: {
  drafts: TaskDraft[];
  /** The task whose form is open beside the canvas. */
  selected?: string;
  onChange(drafts: TaskDraft[]): void;
  onOpen(key: string): void;
  onAdd(type: string): void;
  onRemove(key: string): void;
}) {
  const graph = useMemo(() => workflowGraph(drafts), [drafts]);
  // Tasks by their place ("Task 2"); their keys only in tooltips.
  const names: Record<string, string> = Object.fromEntries(drafts.map((d, i) => [d.key, `Task ${i + 1}`]));
  const unreachable = unreachableTasks(drafts).map((k) => names[k] ?? k);
  const nodes: Node<TaskNodeData>[] = graph.nodes.map((n) => ({
    id: n.id,
    type: "task",
    position: { x: n.x, y: n.y },
    data: {
      ...n,
      name: names[n.id] ?? n.id,
      text: taskText(drafts.find((d) => d.key === n.id)?.task),
      selected: n.id === selectedTask,
      names,
    } as TaskNodeData,
    width: NODE_WIDTH,
    height: n.height,
    draggable: false,
    deletable: false,
    className: FOCUS_RING,
    ariaLabel:
      n.id === END_NODE
        ? "End"
        : `${names[n.id]}: ${taskText(drafts.find((d) => d.key === n.id)?.task) || taskType(n.type)?.label || n.type}${n.first ? ", the first" : ""}. Enter opens its form, Delete removes it`,
  }));
  const name = (id: string) => (id === END_NODE ? "the end" : (names[id] ?? id));
  // A link's outlet by name: the answer's label, or the task's own "then".
  const from = (e: GraphEdge) => {
    const outlet = graph.nodes.find((n) => n.id === e.source)?.outlets.find((o) => o.id === e.sourceHandle);
    return outlet?.id.startsWith("answer-")
      ? `answer ${outlet.label} of ${name(e.source)}`
      : `${name(e.source)}${e.label ? ` (${e.label})` : ""}`;
  };
  // Removable: a dragged link that leads to a task (one to the end is where an unlinked answer leads already).
  const removable = new Map(graph.edges.filter((e) => !e.fixed && e.target !== END_NODE && e.sourceHandle).map((e) => [e.id, e]));
  const link = useSelectedLink([...removable.keys()]);
  const linkName = (e: GraphEdge) => `Link from ${from(e)} to ${name(e.target)}`;
  const unlink = {
    question: (id: string) => {
      const e = removable.get(id);
      return e ? `Remove the link from ${from(e)} to ${name(e.target)}? It will lead to the end.` : null;
    },
    remove: (id: string) => {
      const e = removable.get(id);
      const next = e?.sourceHandle && connectTasks(drafts, e.source, e.sourceHandle, END_NODE);
      if (next) onChange(next);
    },
  };
  const edges: Edge[] = graph.edges.map((e) => ({
    id: e.id,
    source: e.source,
    sourceHandle: e.sourceHandle,
    target: e.target,
    label: e.label || undefined,
    ...linkLook(link.selected === e.id, e.fixed),
    deletable: false,
    focusable: removable.has(e.id),
    selectable: removable.has(e.id),
    selected: link.selected === e.id,
    ariaLabel: linkName(e),
  }));
  const selected = link.selected ? removable.get(link.selected) : undefined;
  const addItems = TASK_TYPES.map(([t, label]) => ({ id: t, label: `Task: ${label}`, onSelect: () => onAdd(t) }));
  // Marks the canvas once it runs in the browser (a test waits for it before using the controls above).
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  return (
    <figure className="flex flex-col gap-2 rounded border border-gray-200 bg-white p-3">
      <figcaption className="text-sm font-semibold">Branching</figcaption>
      <p className="text-sm text-gray-600">
        Click a task (or Tab to it and press Enter) to edit it beside the canvas; Delete removes it. Drag from an answer (or a task's
        “then”) to a task to set where it leads. Click a link (or Tab to it and press Enter) to select it; Delete or “Remove link” removes
        it.
      </p>
      <SelectedLinkBar selected={link.selected} name={selected ? linkName(selected) : ""} removal={unlink} />
      <div className="relative">
        <div className="absolute top-2 right-2 z-10">
          <AddMenu label="Add" items={addItems} />
        </div>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the keys act on the focused node or link (focusable React Flow elements) */}
        <div
          data-testid="branching-graph"
          data-ready={ready || undefined}
          className="w-full rounded border border-gray-100"
          style={{ height: graphHeight(graph.height) }}
          onKeyDown={canvasKeys(
            (key) => key !== END_NODE && onOpen(key),
            {
              question: (key) => (key === END_NODE || drafts.length <= 1 ? null : `Remove ${name(key)}? Links to it will lead to the end.`),
              remove: onRemove,
            },
            unlink,
          )}
        >
          <ReactFlowProvider>
            <ReactFlow
              nodes={nodes}
              edges={edges}
              nodeTypes={NODE_TYPES}
              {...CANVAS_PROPS}
              onNodeClick={(_e, n) => n.id !== END_NODE && onOpen(n.id)}
              onEdgesChange={link.onEdgesChange}
              onConnect={(c) => {
                const next = connectTasks(drafts, c.source, c.sourceHandle ?? "next", c.target);
                if (next) onChange(next);
              }}
              isValidConnection={(c) => !!connectTasks(drafts, c.source, c.sourceHandle ?? "next", c.target)}
              proOptions={{ hideAttribution: true }}
            >
              <FitOnChange bounds={{ x: 0, y: 0, width: graph.width, height: graph.height }} />
              <Controls showInteractive={false} position="top-left" orientation="horizontal" />
            </ReactFlow>
          </ReactFlowProvider>
        </div>
      </div>
      <ul className="sr-only">
        {graph.edges.map((l) => (
          <li key={l.id}>
            {from(l)} leads to {name(l.target)}
          </li>
        ))}
      </ul>
      {unreachable.length > 0 && (
        <p role="status" className="text-sm text-amber-800">
          Nothing leads to {unreachable.join(", ")}: volunteers will not see {unreachable.length === 1 ? "it" : "them"}.
        </p>
      )}
    </figure>
  );
}
