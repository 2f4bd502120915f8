import type { Tool } from "@/lib/classifier/task-flow";

// Colours and names of a drawing task's tools: small on purpose, so the task's tool chooser can show them
// without loading the drawing layer.
export const COLORS = ["#e11d48", "#2563eb", "#16a34a", "#d97706", "#9333ea", "#0891b2"];
export const toolColor = (tools: Tool[], i: number) => tools[i]?.color ?? COLORS[i % COLORS.length];
export const toolLabel = (tools: Tool[], i: number) => tools[i]?.label || tools[i]?.type || "Mark";
