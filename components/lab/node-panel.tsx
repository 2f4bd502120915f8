"use client";
import { useEffect, useRef, type ReactNode } from "react";
import { buttonClass } from "@/components/ui/controls";

/**
 * The form of the node selected on a canvas, in a panel beside it (below it on a narrow screen). When a
 * node is opened (`opened` changes) the panel's heading takes the focus (and so comes into view); "Back to
 * the canvas" returns the focus to the node.
 */
export function NodePanel({
  id,
  title,
  opened,
  onBack,
  children,
}: {
  id: string;
  title: string;
  /** Counts the openings: each new value moves the focus to the panel. */
  opened: number;
  onBack?: () => void;
  children: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (opened > 0) heading.current?.focus();
  }, [opened]);
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="flex min-w-0 flex-col gap-3 rounded-lg border border-brand-600/40 bg-white p-3 lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:overflow-y-auto"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3
          id={`${id}-heading`}
          ref={heading}
          tabIndex={-1}
          className="text-base font-semibold focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          {title}
        </h3>
        {onBack && (
          <button type="button" className={buttonClass} onClick={onBack}>
            Back to the canvas
          </button>
        )}
      </div>
      {children}
    </section>
  );
}

/** Focuses a canvas's node (the way back from its panel), scrolled into view. */
export function focusCanvasNode(canvas: string, id: string) {
  const node = document.querySelector<HTMLElement>(`[data-testid="${canvas}"] .react-flow__node[data-id="${CSS.escape(id)}"]`);
  node?.scrollIntoView({ block: "nearest" });
  node?.focus({ preventScroll: true });
}
