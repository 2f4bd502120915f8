// The classify page's session, free of React: the queue of subjects to classify (topped up a round at a time
// from the server's queue, never showing a subject twice), how many the volunteer classified, the feedback
// of the last one, and gold standard mode. components/classifier/classifier.tsx dispatches these actions.
// No runtime import: this is in the classify page's first load (one subject's steps are ./subject-session).
import type { FeedbackResult } from "./feedback";

/** When this few subjects are left in the queue, the next round is fetched. */
export const TOP_UP_AT = 2;

export interface SessionState<S extends { id: string }> {
  /** The subjects to classify; the first is shown. */
  queue: S[];
  /** Every subject the queue has held, so a round that answers one again does not show it twice. */
  seen: ReadonlySet<string>;
  /** The round of the server's queue being asked for (one more each top up). */
  round: number;
  /** The last round whose answer arrived (-1: none yet). */
  received: number;
  /** A round brought nothing new: there is nothing left to classify. */
  exhausted: boolean;
  /** Classifications done in this session. */
  saved: number;
  /** The feedback on the last classification (shown until closed). */
  feedback: FeedbackResult[];
  goldStandard: boolean;
}

export type SessionAction<S> =
  | { type: "fetched"; round: number; subjects: S[] }
  | { type: "topUp" }
  | { type: "done"; feedback: FeedbackResult[] }
  | { type: "feedbackClosed" }
  | { type: "goldStandard"; on: boolean };

export function newSession<S extends { id: string }>(): SessionState<S> {
  return { queue: [], seen: new Set(), round: 0, received: -1, exhausted: false, saved: 0, feedback: [], goldStandard: false };
}

/** Whether the queue is running low and the current round's answer is in: time to ask for the next round. */
export function needsTopUp(s: SessionState<{ id: string }>): boolean {
  return s.queue.length <= TOP_UP_AT && s.received === s.round && !s.exhausted;
}

export function sessionReducer<S extends { id: string }>(s: SessionState<S>, a: SessionAction<S>): SessionState<S> {
  switch (a.type) {
    case "fetched": {
      // An answer to another round than the one asked for, or the same answer twice, changes nothing.
      if (a.round !== s.round || s.received === a.round) return s;
      const fresh = a.subjects.filter((x) => !s.seen.has(x.id));
      return {
        ...s,
        queue: [...s.queue, ...fresh],
        seen: new Set([...s.seen, ...fresh.map((x) => x.id)]),
        received: a.round,
        exhausted: s.exhausted || fresh.length === 0,
      };
    }
    case "topUp":
      return needsTopUp(s) ? { ...s, round: s.round + 1 } : s;
    case "done":
      return { ...s, queue: s.queue.slice(1), saved: s.saved + 1, feedback: a.feedback };
    case "feedbackClosed":
      return { ...s, feedback: [] };
    case "goldStandard":
      return { ...s, goldStandard: a.on };
  }
}
