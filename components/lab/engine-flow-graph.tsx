"use client";
import "@xyflow/react/dist/style.css";
import { Background, ReactFlow, type Edge, type Node } from "@xyflow/react";
import { useMemo } from "react";
import { engineFlow, FLOW_COLUMNS, type EngineFlowInput, type FlowKind } from "@/lib/lab/engine-flow";

const COLORS: Record<FlowKind, string> = { extractor: "#dbeafe", reducer: "#dcfce7", rule: "#fef9c3", effect: "#fee2e2" };
const TITLES: Record<FlowKind, string> = { extractor: "Extractors", reducer: "Reducers", rule: "Rules", effect: "Effects" };

/**
 * The configuration being edited, drawn live as extractor → reducer → rule → effect (React Flow; read-only,
 * pan and zoom). The same links are listed as text for screen readers.
 */
export function EngineFlowGraph({ config }: { config: EngineFlowInput }) {
  const flow = useMemo(() => engineFlow(config), [config]);
  const nodes: Node[] = flow.nodes.map((n) => ({
    id: n.id,
    position: { x: FLOW_COLUMNS.indexOf(n.kind) * 240, y: n.row * 70 },
    data: { label: n.label },
    style: { background: COLORS[n.kind], width: 200, fontSize: 11, borderColor: "#6b7280" },
    sourcePosition: "right" as Node["sourcePosition"],
    targetPosition: "left" as Node["targetPosition"],
  }));
  const edges: Edge[] = flow.edges.map((e) => ({ id: `${e.from}->${e.to}`, source: e.from, target: e.to }));
  const rows = Math.max(1, ...flow.nodes.map((n) => n.row + 1));
  const label = new Map(flow.nodes.map((n) => [n.id, n.label]));
  return (
    <figure className="flex flex-col gap-2 rounded-lg border border-gray-200 bg-white p-3">
      <figcaption className="text-sm font-semibold">Flow: extractors → reducers → rules → effects</figcaption>
      <div className="flex gap-4 text-xs text-gray-600" aria-hidden="true">
        {FLOW_COLUMNS.map((k) => (
          <span key={k} className="flex items-center gap-1">
            <span className="inline-block h-3 w-3 rounded border border-gray-500" style={{ background: COLORS[k] }} />
            {TITLES[k]}
          </span>
        ))}
      </div>
      <div
        data-testid="engine-flow"
        style={{ height: Math.min(520, 80 + rows * 70) }}
        className="rounded border border-gray-100"
        aria-hidden="true"
      >
        {flow.nodes.length ? (
          <ReactFlow
            nodes={nodes}
            edges={edges}
            fitView
            nodesConnectable={false}
            elementsSelectable={false}
            proOptions={{ hideAttribution: true }}
          >
            <Background />
          </ReactFlow>
        ) : (
          <p className="p-3 text-sm text-gray-600">Add extractors, reducers and rules to see the flow.</p>
        )}
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
