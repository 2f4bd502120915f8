import type { Mark } from "@/lib/classifier/task-flow";

const FOCUS = "#facc15";

/** One mark drawn in the image's pixels; `height` is the image's, for full-height columns. */
export function MarkShape({
  mark,
  color,
  strokeWidth,
  height,
  dashed,
}: {
  mark: Mark;
  color: string;
  strokeWidth: number;
  height: number;
  dashed?: boolean;
}) {
  const common = { fill: "none", stroke: color, strokeWidth, strokeDasharray: dashed ? "6 4" : undefined };
  switch (mark.toolType) {
    case "point":
      return <circle cx={mark.x} cy={mark.y} r={strokeWidth * 3} {...common} />;
    case "rectangle":
      return <rect x={mark.x} y={mark.y} width={mark.width} height={mark.height} {...common} />;
    case "circle":
      return <circle cx={mark.x} cy={mark.y} r={mark.r} {...common} />;
    case "ellipse":
      return (
        <ellipse cx={mark.x} cy={mark.y} rx={mark.rx} ry={mark.ry} transform={`rotate(${mark.angle} ${mark.x} ${mark.y})`} {...common} />
      );
    case "line":
      return <line x1={mark.x1} y1={mark.y1} x2={mark.x2} y2={mark.y2} {...common} />;
    case "transcriptionLine":
      return (
        <g>
          <line x1={mark.x1} y1={mark.y1} x2={mark.x2} y2={mark.y2} {...common} />
          <circle cx={mark.x1} cy={mark.y1} r={strokeWidth * 2} fill={color} />
          <circle cx={mark.x2} cy={mark.y2} r={strokeWidth * 2} fill={color} />
        </g>
      );
    case "column":
      return <rect x={mark.x} y={0} width={mark.width} height={height} {...common} fill={color} fillOpacity={0.15} />;
    case "polygon":
      return <polygon points={mark.points.map((p) => `${p.x},${p.y}`).join(" ")} {...common} />;
    default:
      return <polyline points={mark.points.map((p) => `${p.x},${p.y}`).join(" ")} {...common} />;
  }
}

/**
 * A wide transparent copy of the mark that is easy to grab with a finger (its inside too); shown in
 * yellow while the mark has keyboard focus.
 */
export function MarkHitArea({
  mark,
  strokeWidth,
  height,
  disabled,
}: {
  mark: Mark;
  strokeWidth: number;
  height: number;
  disabled?: boolean;
}) {
  return (
    <g opacity={0} style={{ pointerEvents: disabled ? "none" : "all" }}>
      {mark.toolType === "point" ? (
        <circle cx={mark.x} cy={mark.y} r={strokeWidth * 6} fill={FOCUS} />
      ) : (
        <MarkShape mark={mark} color={FOCUS} strokeWidth={strokeWidth * 6} height={height} />
      )}
    </g>
  );
}
