"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { apiGet } from "@/components/ui/api-client";
import { Markdown } from "@/components/ui/markdown";

interface Tutorial {
  id: string;
  kind: string | null;
  display_name?: string;
  steps: { content?: string }[];
}

const completedKey = (id: string) => `quorum.tutorials_completed_at.${id}`;

/**
 * The workflow's tutorial: shown by itself on the first visit (remembered in this browser's localStorage
 * once seen), and from a "Tutorial" button. A native modal dialog: Escape closes, focus returns to where
 * it was. Nothing when the workflow has no tutorial.
 */
export function TutorialButton({ workflowId }: { workflowId: string }) {
  const tutorial = useQuery({
    queryKey: ["tutorial", workflowId],
    queryFn: async () => (await apiGet<{ tutorials: Tutorial[] }>(`/tutorials?workflow_id=${workflowId}`)).tutorials.find((t) => t.kind !== "mini-course" && t.steps.length) ?? null,
    staleTime: 5 * 60_000,
  });
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const [step, setStep] = useState(0);
  const show = () => {
    opener.current = document.activeElement;
    setStep(0);
    dialog.current?.showModal();
  };
  const t = tutorial.data;
  useEffect(() => {
    if (t && !localStorage.getItem(completedKey(t.id))) show();
  }, [t]);
  if (!t) return null;
  const last = step === t.steps.length - 1;
  return (
    <>
      <button type="button" onClick={show} className="rounded border border-gray-300 bg-white px-3 py-1 text-sm hover:bg-gray-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600">
        Tutorial
      </button>
      <dialog
        ref={dialog}
        aria-labelledby="tutorial-title"
        onClose={() => {
          localStorage.setItem(completedKey(t.id), new Date().toISOString());
          const o = opener.current;
          if (o instanceof HTMLElement && o.isConnected && o !== document.body) o.focus();
        }}
        className="w-[min(32rem,calc(100vw-2rem))] rounded-lg border border-gray-200 p-0 shadow-xl backdrop:bg-black/40"
      >
        <div className="flex flex-col gap-3 p-5">
          <h2 id="tutorial-title" className="text-lg font-semibold">
            {t.display_name || "Tutorial"}
          </h2>
          <p className="text-sm text-gray-600">
            Step {step + 1} of {t.steps.length}
          </p>
          <div className="text-sm">
            <Markdown source={t.steps[step]?.content ?? ""} />
          </div>
          <div className="flex justify-between gap-2">
            <button type="button" disabled={step === 0} onClick={() => setStep((s) => s - 1)} className="rounded border border-gray-300 px-3 py-1 disabled:opacity-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600">
              Previous
            </button>
            <button
              type="button"
              autoFocus
              onClick={() => (last ? dialog.current?.close() : setStep((s) => s + 1))}
              className="rounded bg-brand-600 px-4 py-1 font-semibold text-white focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              {last ? "Let's go" : "Next step"}
            </button>
          </div>
        </div>
      </dialog>
    </>
  );
}
