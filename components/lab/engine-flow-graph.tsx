"use client";
import "@xyflow/react/dist/style.css";
import { Controls, Handle, Position, ReactFlow, ReactFlowProvider, type Edge, type Node, type NodeProps } from "@xyflow/react";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import {
  engineFlow,
  FLOW_COLUMNS,
  flowConnection,
  removableLink,
  type EngineFlowInput,
  type FlowConnection,
  type FlowKind,
} from "@/lib/lab/engine-flow";
import { effectOption } from "@/lib/lab/engine-options";
import { engineLabel } from "@/lib/lab/labels";
import { CANVAS_PROPS, canvasKeys, FitOnChange, FOCUS_RING, graphHeight, linkLook, SelectedLinkBar, useSelectedLink } from "./graph-fit";

const COLORS: Record<FlowKind, string> = { extractor: "#dbeafe", reducer: "#dcfce7", rule: "#fef9c3", effect: "#fee2e2" };
const TITLES: Record<FlowKind, string> = { extractor: "Extractors", reducer: "Reducers", rule: "Rules", effect: "Effects" };
const WIDTH = 170;
const HEIGHT = 56;
const ROW = 72;
const COLUMN = 200;

interface FlowNodeData extends Record<string, unknown> {
  kind: FlowKind;
  title: string;
  detail: string;
  internal: string;
  /** The raw names, in the node's tooltip. */
  hint?: string;
  selected?: boolean;
}

function FlowNodeView({ data }: NodeProps<Node<FlowNodeData>>) {
  return (
    <div
      className={`flex flex-col justify-center rounded-md border border-gray-500 px-2 text-left text-xs ${data.selected ? "ring-3 ring-brand-600" : ""}`}
      style={{ width: WIDTH, height: HEIGHT, background: COLORS[data.kind] }}
      title={data.hint}
    >
      {data.kind !== "extractor" && <Handle type="target" position={Position.Left} className="!h-5 !w-3 !rounded-sm !bg-gray-600" />}
      <span className="truncate font-semibold">{data.title}</span>
      <span className="truncate text-gray-700">
        {data.detail}
        {data.internal && <span className="ml-1 font-mono text-[10px] text-gray-600">({data.internal})</span>}
      </span>
      {data.kind !== "effect" && (
        <Handle type="source" position={Position.Right} isConnectableStart={data.kind !== "rule"} className="!h-4 !w-4 !bg-brand-600" />
      )}
    </div>
  );
}

const NODE_TYPES = { flow: FlowNodeView };

/** What a node of the flow says: its key (or number) and what it is, the internal name in small print. */
function nodeText(config: EngineFlowInput, id: string, kind: FlowKind, label: string): { title: string; detail: string; internal: string } {
  if (kind === "extractor" || kind === "reducer") {
    const key = id.slice(2);
    const type = String((kind === "extractor" ? config.extractors_config : config.reducers_config)[key]?.type ?? "");
    return {
      title: key || "(no key)",
      detail: engineLabel(kind === "extractor" ? "extractorTypes" : "reducerTypes", type),
      internal: type,
    };
  }
  if (kind === "rule") {
    const [head, ...rest] = label.split(": if ");
    return { title: head, detail: `if ${rest.join(": if ")}`, internal: "" };
  }
  const action = label.split(" · ")[0];
  return { title: effectOption(action)?.label ?? action, detail: label.split(" · ").slice(1).join(" · "), internal: action };
}

/**
 * The configuration being built, as a canvas: extractor → reducer → rule → effect (React Flow). Nodes are
 * added here, linked by dragging from a node's right handle to the next column's node (an extractor onto a
 * reducer: the reducer reads it; a reducer onto a rule: the rule's condition looks it up), opened with a
 * click or Enter (their form below), removed with Delete after a confirmation. A link is selected by a click
 * or Enter and removed with Delete or its "Remove link" button (confirmed), as unticking the extractor in the
 * reducer's form or removing the rule's comparison of the reducer does. Fits itself to view on every change.
 * The links are also listed as text.
 */
export function EngineFlowGraph({
  config,
  addMenu,
  selected,
  describe = {},
  onConnect,
  onDisconnect,
  onOpen,
  onRemove,
}: {
  config: EngineFlowInput;
  /** The canvas's "+ Add" menu, drawn over its top right corner. */
  addMenu: ReactNode;
  /** The node whose form is open beside the canvas. */
  selected?: string;
  /** Nodes said in the researcher's words (a rule's sentence, an extractor's task by name), the raw names as a tooltip. */
  describe?: Record<string, { detail: string; hint: string }>;
  onConnect(c: FlowConnection): void;
  onDisconnect(c: FlowConnection): void;
  onOpen(id: string): void;
  onRemove(id: string): void;
}) {
  const flow = useMemo(() => engineFlow(config), [config]);
  const nodes: Node<FlowNodeData>[] = flow.nodes.map((n) => {
    const own = describe[n.id];
    const data: FlowNodeData = {
      kind: n.kind,
      ...nodeText(config, n.id, n.kind, n.label),
      ...(own ? { detail: own.detail, hint: own.hint, internal: "" } : {}),
      selected: n.id === selected,
    };
    return {
      id: n.id,
      type: "flow",
      position: { x: FLOW_COLUMNS.indexOf(n.kind) * COLUMN, y: n.row * ROW },
      data,
      width: WIDTH,
      height: HEIGHT,
      draggable: false,
      deletable: false,
      className: FOCUS_RING,
      ariaLabel:
        `${n.kind === "effect" ? "Effect" : ""} ${data.title}: ${data.detail}. Enter opens its form${n.kind === "effect" ? "" : ", Delete removes it"}`.trim(),
    };
  });
  const label = new Map(nodes.map((n) => [n.id, `${n.data.title} (${n.data.detail})`]));
  // A link by name: "Link from extractor q to reducer c", "Link from reducer c to rule 1".
  const KIND_NAMES: Record<FlowKind, string> = { extractor: "extractor", reducer: "reducer", rule: "", effect: "effect" };
  const nodeName = (id: string) => {
    const n = nodes.find((x) => x.id === id);
    return n ? `${KIND_NAMES[n.data.kind]} ${n.data.title}`.trim() : id;
  };
  const linkName = (id: string) => {
    const [from, to] = id.split("->");
    return `Link from ${nodeName(from)} to ${nodeName(to)}`;
  };
  const removable = new Map<string, FlowConnection>();
  for (const e of flow.edges) {
    const link = removableLink(config, e.from, e.to);
    if (link) removable.set(`${e.from}->${e.to}`, link);
  }
  const selection = useSelectedLink([...removable.keys()]);
  const unlink = {
    question: (id: string) => {
      const link = removable.get(id);
      if (!link) return null;
      return link.kind === "extractor-reducer"
        ? `Remove the link: reducer ${link.reducer} no longer reads extractor ${link.extractor}?`
        : `Remove the link: rule ${link.rule + 1} no longer looks up reducer ${link.reducer}? Its comparisons of it are removed (a condition left empty becomes “always”).`;
    },
    remove: (id: string) => {
      const link = removable.get(id);
      if (link) onDisconnect(link);
    },
  };
  const edges: Edge[] = flow.edges.map((e) => {
    const id = `${e.from}->${e.to}`;
    return {
      id,
      source: e.from,
      target: e.to,
      ...linkLook(selection.selected === id, !!e.implicit),
      deletable: false,
      focusable: removable.has(id),
      selectable: removable.has(id),
      selected: selection.selected === id,
      ariaLabel: linkName(id),
    };
  });
  const bounds = {
    x: 0,
    y: 0,
    width: Math.max(0, ...nodes.map((n) => n.position.x)) + WIDTH,
    height: Math.max(0, ...nodes.map((n) => n.position.y)) + HEIGHT,
  };
  // Marks the canvas once it runs in the browser (a test waits for it before using the buttons above).
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const open = (id: string) => onOpen(id);
  return (
    <figure className="flex flex-col gap-2 rounded-lg border border-gray-200 bg-white p-3">
      <figcaption className="text-sm font-semibold">Flow: extractors → reducers → rules → effects</figcaption>
      <p className="text-sm text-gray-600">
        Add nodes with “+ Add”; click a node (or Tab to it and press Enter) to edit it beside the canvas, Delete removes it. Drag from a
        node's right handle to link it: an extractor to a reducer (the reducer reads it; dashed: it reads every extractor), a reducer to a
        rule (the rule looks it up). Click a link (or Tab to it and press Enter) to select it; Delete or “Remove link” removes it.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <span className="ml-auto flex gap-4 text-xs text-gray-600" aria-hidden="true">
          {FLOW_COLUMNS.map((k) => (
            <span key={k} className="flex items-center gap-1">
              <span className="inline-block h-3 w-3 rounded border border-gray-500" style={{ background: COLORS[k] }} />
              {TITLES[k]}
            </span>
          ))}
        </span>
      </div>
      <SelectedLinkBar selected={selection.selected} name={selection.selected ? linkName(selection.selected) : ""} removal={unlink} />
      <div className="relative">
        <div className="absolute top-2 right-2 z-10">{addMenu}</div>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the keys act on the focused node or link (focusable React Flow elements) */}
        <div
          data-testid="engine-flow"
          data-ready={ready || undefined}
          style={{ height: graphHeight(bounds.height) }}
          className="w-full rounded border border-gray-100"
          onKeyDown={canvasKeys(
            open,
            { question: (id) => (id.startsWith("effect:") ? null : `Remove ${label.get(id)}?`), remove: onRemove },
            unlink,
          )}
        >
          {flow.nodes.length ? (
            <ReactFlowProvider>
              <ReactFlow
                nodes={nodes}
                edges={edges}
                nodeTypes={NODE_TYPES}
                {...CANVAS_PROPS}
                onNodeClick={(_e, n) => open(n.id)}
                onEdgesChange={selection.onEdgesChange}
                isValidConnection={(c) => !!flowConnection(c.source, c.target)}
                onConnect={(c) => {
                  const link = flowConnection(c.source, c.target);
                  if (link) onConnect(link);
                }}
                proOptions={{ hideAttribution: true }}
              >
                <FitOnChange bounds={bounds} />
                <Controls showInteractive={false} position="top-left" orientation="horizontal" />
              </ReactFlow>
            </ReactFlowProvider>
          ) : (
            <p className="p-3 pr-32 text-sm text-gray-600">Add extractors, reducers and rules with “+ Add” to see the flow.</p>
          )}
        </div>
      </div>
      <ul className="sr-only">
        {flow.edges.map((e) => (
          <li key={`${e.from}->${e.to}`}>
            {label.get(e.from)} leads to {label.get(e.to)}
          </li>
        ))}
      </ul>
    </figure>
  );
}
