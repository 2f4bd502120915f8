import type { ReactNode } from "react";
import { Alert } from "./alert";

/** Grey lines standing in for content that is loading, announced as loading `what`. */
export function Skeleton({ what, lines = 3 }: { what: string; lines?: number }) {
  return (
    <div role="status" className="flex flex-col gap-2" data-testid="skeleton">
      <span className="sr-only">Loading {what}…</span>
      {Array.from({ length: lines }, (_, i) => (
        <div key={i} aria-hidden="true" className={`h-4 animate-pulse rounded bg-gray-200 ${i % 2 ? "w-2/3" : "w-full"}`} />
      ))}
    </div>
  );
}

/** What a list or panel says when there is nothing to show yet, and what to do about it. */
export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="text-sm text-gray-600">{children}</p>;
}

/**
 * The one way a query's loading, failure and emptiness show: its children once there is data. `skeleton`
 * shows that many grey lines while loading instead of a line of text, `loading` an element of its own (one
 * that keeps the room of what comes); `retry` adds a "Try again" button to the error (an Alert).
 */
export function QueryState({
  query,
  what,
  empty,
  skeleton,
  loading,
  retry,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data?: unknown };
  what: string;
  empty?: ReactNode;
  skeleton?: number;
  loading?: ReactNode;
  retry?: () => void;
  children: ReactNode;
}) {
  if (query.isPending) return loading ?? (skeleton ? <Skeleton what={what} lines={skeleton} /> : <p role="status">Loading {what}…</p>);
  if (query.isError)
    return (
      <Alert>
        The {what} could not be loaded: {(query.error as Error).message}
        {retry && (
          <>
            {" "}
            <button type="button" className="font-medium underline" onClick={retry}>
              Try again
            </button>
          </>
        )}
      </Alert>
    );
  if (empty !== undefined && Array.isArray(query.data) && !query.data.length) return <EmptyState>{empty}</EmptyState>;
  return <>{children}</>;
}
