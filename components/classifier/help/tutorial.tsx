"use client";
import { useEffect, useState } from "react";
import { Dialog } from "../lazy-dialog";
import { useAttachedImages } from "./attached-images";
import { TutorialStepView } from "./help-content";
import { useTranslated } from "./translated";
import { useWorkflowTutorial } from "./workflow-tutorial";
import { usePreference } from "../volunteer/preferences";
import { currentTaskControl } from "../current-task";

const completedKey = (id: string) => `quorum.tutorials_completed_at.${id}`;

/** The workflow's tutorial in the volunteer's language, with its steps' attached images. */
function useTutorialContent(workflowId: string, primaryLanguage: string, language: string | null) {
  const tutorial = useWorkflowTutorial(workflowId, "tutorial", primaryLanguage);
  const t = useTranslated("tutorial", tutorial.data?.id, language, tutorial.data ?? undefined) ?? tutorial.data;
  const images = useAttachedImages("tutorials", t?.id, !!t?.steps.some((s) => s.media));
  return { t, images };
}

const stepButton =
  "rounded border border-gray-300 px-3 py-1 disabled:opacity-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600";
const lastButton =
  "rounded bg-brand-600 px-4 py-1 font-semibold text-white focus-visible:outline focus-visible:outline-2 " +
  "focus-visible:outline-offset-2 focus-visible:outline-brand-600";

/**
 * The tutorial read inline, in the classifier's "Tutorial" tab (the established classifier's slide
 * tutorial): a step at a time, the last one's button back to the task. The same steps as the dialog.
 */
export function TutorialPanel({
  workflowId,
  primaryLanguage = "en",
  language = null,
  onDone,
}: {
  workflowId: string;
  primaryLanguage?: string;
  language?: string | null;
  onDone(): void;
}) {
  const { t, images } = useTutorialContent(workflowId, primaryLanguage, language);
  const [step, setStep] = useState(0);
  if (!t) return null;
  const last = step >= t.steps.length - 1;
  return (
    <div className="flex flex-col gap-3">
      <h2 className="font-semibold sm:text-lg">{t.display_name || "Tutorial"}</h2>
      <p className="text-sm text-gray-600" aria-live="polite">
        Step {Math.min(step, t.steps.length - 1) + 1} of {t.steps.length}
      </p>
      <TutorialStepView step={t.steps[Math.min(step, t.steps.length - 1)]} images={images.data} />
      <div className="flex justify-between gap-2">
        <button type="button" disabled={step === 0} onClick={() => setStep((s) => s - 1)} className={stepButton}>
          Previous
        </button>
        <button type="button" onClick={() => (last ? onDone() : setStep((s) => s + 1))} className={lastButton}>
          {last ? "Back to the task" : "Next step"}
        </button>
      </div>
    </div>
  );
}

/**
 * The workflow's tutorial: shown by itself on the first visit, and from a "Tutorial" button. Once seen it is
 * remembered as the established front end does: in the volunteer's project preference
 * (`preferences.tutorials_completed_at[<tutorial id>]`), or this browser's localStorage when anonymous. The
 * UI's dialog (centred, ×, Escape); closed, the focus goes back to the button, or (shown by itself) to the
 * task's first answer. Nothing when the workflow has none.
 */
export function TutorialButton({
  workflowId,
  projectId,
  primaryLanguage = "en",
  language = null,
}: {
  workflowId: string;
  projectId: string;
  primaryLanguage?: string;
  language?: string | null;
}) {
  const pref = usePreference(projectId);
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState(0);
  const show = () => {
    setStep(0);
    setOpen(true);
  };
  const { t, images } = useTutorialContent(workflowId, primaryLanguage, language);
  const completedInPreference = !!(pref.preferences.tutorials_completed_at as Record<string, string> | undefined)?.[t?.id ?? ""];
  // biome-ignore lint/correctness/useExhaustiveDependencies: shown once the tutorial and preference are known; rerun, it would reopen one closed unfinished
  useEffect(() => {
    if (!t || !pref.ready) return;
    const seen = pref.signedIn ? completedInPreference : !!localStorage.getItem(completedKey(t.id));
    if (!seen) show();
  }, [t, pref.ready]);
  if (!t) return null;
  const last = step === t.steps.length - 1;
  return (
    <>
      <button
        type="button"
        onClick={show}
        aria-haspopup="dialog"
        className={
          "rounded border border-gray-300 bg-white px-3 py-1 text-sm hover:bg-gray-100 " +
          "focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600"
        }
      >
        Tutorial
      </button>
      <Dialog
        open={open}
        title={t.display_name || "Tutorial"}
        returnFocus={currentTaskControl}
        onClose={() => {
          setOpen(false);
          const at = new Date().toISOString();
          localStorage.setItem(completedKey(t.id), at);
          if (pref.signedIn) void pref.save({ tutorials_completed_at: { [t.id]: at } }).catch(() => {});
        }}
        actions={
          <>
            <button type="button" disabled={step === 0} onClick={() => setStep((s) => s - 1)} className={`mr-auto ${stepButton}`}>
              Previous
            </button>
            <button type="button" data-autofocus onClick={() => (last ? setOpen(false) : setStep((s) => s + 1))} className={lastButton}>
              {last ? "Let's go" : "Next step"}
            </button>
          </>
        }
      >
        <div className="flex flex-col gap-3">
          <p className="text-sm text-gray-600" aria-live="polite">
            Step {step + 1} of {t.steps.length}
          </p>
          <TutorialStepView step={t.steps[step]} images={images.data} />
        </div>
      </Dialog>
    </>
  );
}
