import type { ReducerDef, ReductionData } from "./reducer";
import { ZRectangleReducer, type TRectangleReducer } from "./schemas";

export type Point = readonly number[];

/**
 * DBSCAN over points (Euclidean distance, a point is its own neighbour; `distance <= eps` is a neighbour).
 * Returns a label per point: clusters numbered 0.. in the order their first core point appears, -1 noise.
 * A border point reachable from several clusters joins the first one that reaches it.
 */
export function dbscan(points: readonly Point[], eps: number, minSamples: number): number[] {
  const dist = (a: Point, b: Point) => Math.sqrt(a.reduce((s, v, i) => s + (v - b[i]) ** 2, 0));
  const neighbours = (i: number) => points.flatMap((p, j) => (dist(points[i], p) <= eps ? [j] : []));
  const UNSEEN = -2;
  const labels = points.map(() => UNSEEN);
  let cluster = 0;
  for (let i = 0; i < points.length; i++) {
    if (labels[i] !== UNSEEN) continue;
    const seeds = neighbours(i);
    if (seeds.length < minSamples) {
      labels[i] = -1;
      continue;
    }
    labels[i] = cluster;
    const queue = seeds.filter((j) => j !== i);
    for (let q = 0; q < queue.length; q++) {
      const j = queue[q];
      if (labels[j] === -1) labels[j] = cluster; // border point
      if (labels[j] !== UNSEEN) continue;
      labels[j] = cluster;
      const more = neighbours(j);
      if (more.length >= minSamples) for (const k of more) if (labels[k] === UNSEEN || labels[k] === -1) queue.push(k);
    }
    cluster++;
  }
  return labels;
}

const FIELDS = ["x", "y", "width", "height"] as const;

/**
 * `rectangle` clusters the rectangles of `shape` extracts (shape: rectangle) per tool with DBSCAN over
 * (x, y, width, height), `eps` (default 5) and `min_samples` (default 2); angles are ignored. For each tool
 * prefix `P` (e.g. `T0_tool0`), parallel arrays over every input rectangle in extract order:
 * `P_rec_x, P_rec_y, P_rec_width, P_rec_height, P_rec_extract_ids, P_cluster_labels` (-1 = noise), and per
 * cluster (label order) `P_clusters_count, P_clusters_x, P_clusters_y, P_clusters_width, P_clusters_height`
 * (member means). `{}` (not stored) when there are no rectangles.
 */
export const rectangleReducer: ReducerDef<TRectangleReducer> = {
  schema: ZRectangleReducer,
  output: "{P_rec_x|y|width|height|extract_ids: [], P_cluster_labels: [], P_clusters_count|x|y|width|height: []} per tool prefix P",
  reduce(config, extracts) {
    const byTool = new Map<string, { extractId: number; rect: number[] }[]>();
    for (const e of extracts) {
      const data = e.data ?? {};
      for (const key of Object.keys(data)) {
        const m = /^(.*_tool\d+)_x$/.exec(key);
        if (!m) continue;
        const prefix = m[1];
        const cols = FIELDS.map((f) => data[`${prefix}_${f}`]);
        if (!cols.every(Array.isArray)) continue;
        const arrays = cols as unknown[][];
        for (let i = 0; i < arrays[0].length; i++) {
          const rect = arrays.map((a) => a[i]);
          if (!rect.every((v) => typeof v === "number" && Number.isFinite(v))) continue;
          if (!byTool.has(prefix)) byTool.set(prefix, []);
          byTool.get(prefix)!.push({ extractId: e.id, rect: rect as number[] });
        }
      }
    }
    const data: ReductionData = {};
    for (const prefix of [...byTool.keys()].sort()) {
      const rects = byTool.get(prefix)!;
      const labels = dbscan(
        rects.map((r) => r.rect),
        config.eps ?? 5,
        config.min_samples ?? 2,
      );
      FIELDS.forEach((f, i) => {
        data[`${prefix}_rec_${f}`] = rects.map((r) => r.rect[i]);
      });
      data[`${prefix}_rec_extract_ids`] = rects.map((r) => r.extractId);
      data[`${prefix}_cluster_labels`] = labels;
      const clusters = Math.max(-1, ...labels) + 1;
      const members = Array.from({ length: clusters }, (_, c) => rects.filter((_, i) => labels[i] === c));
      data[`${prefix}_clusters_count`] = members.map((m) => m.length);
      FIELDS.forEach((f, i) => {
        data[`${prefix}_clusters_${f}`] = members.map((m) => m.reduce((s, r) => s + r.rect[i], 0) / m.length);
      });
    }
    return data;
  },
};
