import type { ReactNode } from "react";

/** What a list shows while its query loads, fails or finds nothing; its children once there is data. */
export function QueryState({
  query,
  what,
  empty,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data?: unknown };
  what: string;
  empty?: string;
  children: ReactNode;
}) {
  if (query.isPending) return <p role="status">Loading {what}…</p>;
  if (query.isError)
    return (
      <p role="alert" className="rounded border border-red-300 bg-red-50 p-2 text-sm">
        The {what} could not be loaded: {(query.error as Error).message}
      </p>
    );
  if (empty !== undefined && Array.isArray(query.data) && !query.data.length) return <p className="text-sm text-gray-600">{empty}</p>;
  return <>{children}</>;
}
