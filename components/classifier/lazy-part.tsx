"use client";
import { lazy, Suspense, type ComponentType, type ReactNode } from "react";

/**
 * A component loaded on first use, in a chunk of its own (React.lazy: no loader code beyond React's),
 * showing `fallback` until it arrives. The classifier's rarer parts use it, so its first load carries only
 * what a question task needs.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = null) {
  const Loaded = lazy(async () => ({ default: await load() }));
  // biome-ignore lint/correctness/noComponentHookFactories: run once per part at module level (`const X = lazyPart(...)`), never while rendering
  function LazyPart(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  return LazyPart;
}
