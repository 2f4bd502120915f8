"use client";
import { useEffect, useRef, useState } from "react";
import { Dialog } from "../lazy-dialog";
import { useAttachedImages } from "./attached-images";
import { TutorialStepView } from "./help-content";
import { useTranslated } from "./translated";
import { useWorkflowTutorial } from "./workflow-tutorial";
import { usePreference } from "../volunteer/preferences";
import { currentTaskControl } from "../current-task";

/** Every this many classifications, the next lesson of the mini-course is offered. */
export const MINI_COURSE_EVERY = 5;
const localKey = (id: string) => `quorum.minicourse.${id}`;

/**
 * The workflow's mini-course (a tutorial of kind "mini-course"): every few classifications it offers its
 * next lesson, which the volunteer opens, leaves for later, or stops for good. Where they are and whether
 * they stopped is kept as the established front end keeps it: the project preference's
 * `preferences.minicourses` ({slide_to_start: {<id>: n}, opt_out: {<id>: true}}), or this browser when
 * anonymous. Nothing when the workflow has none.
 */
export function MiniCourse({
  workflowId,
  projectId,
  classified,
  primaryLanguage = "en",
  language = null,
}: {
  workflowId: string;
  projectId: string;
  classified: number;
  primaryLanguage?: string;
  language?: string | null;
}) {
  const course = useWorkflowTutorial(workflowId, "mini-course", primaryLanguage);
  const pref = usePreference(projectId);
  const [local, setLocal] = useState<{ slide: number; optOut: boolean }>({ slide: 0, optOut: false });
  const [offered, setOffered] = useState<number | null>(null);
  const [open, setOpen] = useState(false);
  const finished = useRef(false);
  const c = useTranslated("tutorial", course.data?.id, language, course.data ?? undefined) ?? course.data;
  const images = useAttachedImages("tutorials", c?.id, !!c?.steps.some((s) => s.media));
  useEffect(() => {
    if (c && !pref.signedIn) setLocal(JSON.parse(localStorage.getItem(localKey(c.id)) ?? '{"slide":0,"optOut":false}'));
  }, [c, pref.signedIn]);
  const stored = pref.preferences.minicourses as { slide_to_start?: Record<string, number>; opt_out?: Record<string, boolean> } | undefined;
  const slide = c ? (pref.signedIn ? (stored?.slide_to_start?.[c.id] ?? 0) : local.slide) : 0;
  const optOut = c ? (pref.signedIn ? !!stored?.opt_out?.[c.id] : local.optOut) : true;
  // Offer a lesson when a multiple of MINI_COURSE_EVERY classifications is reached.
  useEffect(() => {
    if (c && classified > 0 && classified % MINI_COURSE_EVERY === 0 && !optOut && slide < c.steps.length) setOffered(classified);
  }, [classified, c, optOut, slide]);
  if (!c || offered === null) return null;

  const remember = async (next: { slide?: number; optOut?: boolean }) => {
    const value = { slide: next.slide ?? slide, optOut: next.optOut ?? optOut };
    if (pref.signedIn)
      await pref
        .save({
          minicourses: {
            slide_to_start: { ...(stored?.slide_to_start ?? {}), [c.id]: value.slide },
            opt_out: { ...(stored?.opt_out ?? {}), [c.id]: value.optOut },
          },
        })
        .catch(() => {});
    else {
      localStorage.setItem(localKey(c.id), JSON.stringify(value));
      setLocal(value);
    }
  };
  const button =
    "rounded border border-gray-300 bg-white px-3 py-1 text-sm hover:bg-gray-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600";
  return (
    <>
      <section
        aria-label="Mini-course"
        className="flex flex-wrap items-center gap-2 rounded border border-brand-600 bg-brand-50 p-3 text-sm"
        data-testid="mini-course-prompt"
      >
        <p className="mr-auto">
          {c.display_name || "Mini-course"}: lesson {slide + 1} of {c.steps.length} is ready.
        </p>
        <button type="button" className={button} aria-haspopup="dialog" onClick={() => setOpen(true)}>
          Show me
        </button>
        <button type="button" className={button} onClick={() => setOffered(null)}>
          Not now
        </button>
        <button
          type="button"
          className={button}
          onClick={async () => {
            await remember({ optOut: true });
            setOffered(null);
          }}
        >
          Stop the mini-course
        </button>
      </section>
      <Dialog
        open={open}
        onClose={() => {
          setOpen(false);
          if (!finished.current) return;
          // The lesson read: the prompt (and its "Show me") goes, so the focus goes on to the task.
          finished.current = false;
          setOffered(null);
          currentTaskControl()?.focus();
          void remember({ slide: slide + 1 });
        }}
        title={`${c.display_name || "Mini-course"}: lesson ${slide + 1} of ${c.steps.length}`}
        actions={
          <button
            type="button"
            data-autofocus
            className={
              "rounded bg-brand-600 px-4 py-1 font-semibold text-white focus-visible:outline " +
              "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            }
            onClick={() => {
              finished.current = true;
              setOpen(false);
            }}
          >
            Got it
          </button>
        }
      >
        <TutorialStepView step={c.steps[slide]} images={images.data} />
      </Dialog>
    </>
  );
}
