// Error lines from loops that retry on their own (the engine inbox every 25 ms, the counts fold every
// second, lease renewal, the 503 answer): while the database is down they would fail on every round and
// flood the log. The first failure of a kind is logged at once; after that at most one line per interval,
// saying how many were left out.

const INTERVAL_MS = 10_000;

interface State {
  last: number;
  suppressed: number;
}

/** Logs `message` (with `detail`) unless a line of this kind was logged less than the interval ago. */
export type ThrottledLog = (kind: string, message: string, detail?: unknown) => void;

/** A throttled logger writing through `write` (console.error by default), `intervalMs` apart per kind, on the clock `now`. */
export function throttledLog(
  write: (...args: unknown[]) => void = console.error,
  intervalMs = INTERVAL_MS,
  now: () => number = Date.now,
): ThrottledLog {
  const kinds = new Map<string, State>();
  return (kind, message, detail) => {
    const t = now();
    const s = kinds.get(kind);
    if (s && t - s.last < intervalMs) {
      s.suppressed++;
      return;
    }
    const more = s?.suppressed ? ` (and ${s.suppressed} more like it in the last ${Math.round((t - s.last) / 1000)} s)` : "";
    kinds.set(kind, { last: t, suppressed: 0 });
    if (detail === undefined) write(`${message}${more}`);
    else write(`${message}${more}`, detail);
  };
}

/** The process's throttled error log. */
export const logError = throttledLog((...args) => console.error(...args));
