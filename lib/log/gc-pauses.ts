import { PerformanceObserver } from "node:perf_hooks";

// A diagnosis switch: GC_PAUSE_LOG_MS=<n> logs every garbage collection of this process that paused it for
// n ms or more, as one JSON line on stderr with its wall-clock time, so a benchmark can line a slow
// request up with a collection (bench:lists names its slow pages with their wall-clock times).

const KINDS: Record<number, string> = { 1: "major", 2: "minor", 4: "incremental", 8: "weakcb" };

export function logGcPauses(thresholdMs = Number(process.env.GC_PAUSE_LOG_MS)): void {
  if (!Number.isFinite(thresholdMs) || thresholdMs < 0) return;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.duration < thresholdMs) continue;
      const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0;
      const at = Math.round(performance.timeOrigin + e.startTime);
      console.error(JSON.stringify({ gc: KINDS[kind] ?? String(kind), ms: Math.round(e.duration * 10) / 10, at, pid: process.pid }));
    }
  });
  observer.observe({ entryTypes: ["gc"] });
}
