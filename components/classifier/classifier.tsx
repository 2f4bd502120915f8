"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useReducer, useRef, useState } from "react";
import { apiGet } from "@/components/ui/api-client";
import { PendingProvider, usePending } from "./pending-classifications";
import { needsTopUp, newSession, sessionReducer } from "@/lib/classifier/session";
import { lazyPart } from "./lazy-part";
import type { ClassifierWorkflow, QueuedSubject } from "./types";
import type { Records } from "@/components/ui/wire-types";
import { Alert } from "@/components/ui/alert";

// Help, favourites and feedback arrive after the first subject: their own chunks (the first load carries
// what the first task needs).
const FeedbackModal = lazyPart(() => import("./volunteer/feedback-modal").then((m) => m.FeedbackModal));
// The subject's tasks and viewer (and the task logic with them) arrive while the queue is fetched.
const loadingSubject = (
  <p role="status" aria-live="polite" className="animate-pulse rounded border border-gray-200 bg-white p-6 text-gray-600">
    Loading subjects…
  </p>
);
const SubjectClassification = lazyPart(() => import("./subject-classification").then((m) => m.SubjectClassification), loadingSubject);
const UnsupportedNote = lazyPart(() => import("./subject-classification").then((m) => m.UnsupportedNote));
const PendingStatus = lazyPart(() => import("./pending-status").then((m) => m.PendingStatus));
const ClassifiedCounter = lazyPart(() => import("./volunteer/classified-counter").then((m) => m.ClassifiedCounter));
const FieldGuideButton = lazyPart(() => import("./help/field-guide").then((m) => m.FieldGuideButton));
const TutorialButton = lazyPart(() => import("./help/tutorial").then((m) => m.TutorialButton));
const KeyboardHelpButton = lazyPart(() => import("./help/keyboard-help").then((m) => m.KeyboardHelpButton));
const MiniCourse = lazyPart(() => import("./help/mini-course").then((m) => m.MiniCourse));
// Only for a volunteer who has seen every subject: other projects to go to.
const OtherProjects = lazyPart(() => import("./volunteer/other-projects").then((m) => m.OtherProjects));

/** Asks the browser for the next subjects' images now, so the next one shows at once after Done. */
function usePreload(subjects: { locations: Record<string, string>[] }[]) {
  const held = useRef(new Map<string, HTMLImageElement>());
  const urls = subjects.flatMap((s) =>
    s.locations
      .map((l) => Object.entries(l)[0] ?? ["", ""])
      .filter(([mime]) => mime.startsWith("image/"))
      .map(([, url]) => url),
  );
  const key = urls.join(" ");
  useEffect(() => {
    const keep = new Set(key ? key.split(" ") : []);
    for (const url of keep) {
      if (held.current.has(url)) continue;
      const img = new Image();
      img.decoding = "async";
      img.src = url;
      held.current.set(url, img);
    }
    // Forget (without cancelling: the cache keeps what arrived) the ones no longer ahead.
    for (const url of [...held.current.keys()]) if (!keep.has(url)) held.current.delete(url);
  }, [key]);
}

/**
 * The volunteer classifier: subjects from the workflow's queue, its tasks one step at a time (branching on
 * answers, combo tasks together), and the classification posted when the volunteer is done. The next
 * subjects are fetched before they are needed; a failed save keeps the answers and offers a retry.
 */
export function Classifier(props: {
  projectId: string;
  workflow: ClassifierWorkflow;
  language?: string | null;
  /** The project's primary language: its tutorials and field guide are written in it (translations apply on top). */
  primaryLanguage?: string;
  mayGoldStandard?: boolean;
  /** Whether the page was rendered for a signed-in visitor (false: nothing asks /api/me for a 401). */
  signedIn?: boolean;
}) {
  const client = useQueryClient();
  // "Nobody is signed in" seeds the query of /api/me (useMe in ./volunteer/preferences, not imported here to
  // keep it out of the first load), so an anonymous visitor's browser never asks it for the 401 it would log.
  useState(() => props.signedIn === false && client.getQueryData(["me"]) === undefined && client.setQueryData(["me"], null));
  return (
    <PendingProvider>
      <ClassifierQueue {...props} />
    </PendingProvider>
  );
}

function ClassifierQueue({
  projectId,
  workflow,
  language = null,
  primaryLanguage = "en",
  mayGoldStandard = false,
}: {
  projectId: string;
  workflow: ClassifierWorkflow;
  language?: string | null;
  primaryLanguage?: string;
  mayGoldStandard?: boolean;
}) {
  const [session, dispatch] = useReducer(sessionReducer<QueuedSubject>, undefined, newSession<QueuedSubject>);
  const fetched = useQuery({
    queryKey: ["queued", workflow.id, session.round],
    queryFn: () => apiGet<Records<"subjects", QueuedSubject>>(`/subjects/queued?workflow_id=${workflow.id}`),
    staleTime: Infinity,
    gcTime: 0,
    retry: 2,
  });
  const round = session.round;
  useEffect(() => {
    if (fetched.data) dispatch({ type: "fetched", round, subjects: fetched.data.subjects });
  }, [fetched.data, round]);
  const { queue, exhausted, saved, feedback, goldStandard } = session;
  const subject = queue[0];
  usePreload(queue.slice(1, 3));
  // Top up before the volunteer reaches the end of what is loaded.
  const topUp = needsTopUp(session) && !fetched.isFetching;
  useEffect(() => {
    if (topUp) dispatch({ type: "topUp" });
  }, [topUp]);

  const { stored } = usePending();
  // The task column beside the subject and the place below it, filled by the subject's classification.
  const [side, setSide] = useState<HTMLDivElement | null>(null);
  const [below, setBelow] = useState<HTMLDivElement | null>(null);
  const [guide, setGuide] = useState<HTMLDivElement | null>(null);

  let body: ReactNode;
  if (fetched.isError && !subject)
    body = (
      <Alert>
        Subjects could not be loaded: {(fetched.error as Error).message}{" "}
        <button type="button" className="font-medium underline" onClick={() => fetched.refetch()}>
          Try again
        </button>
      </Alert>
    );
  else if (!subject)
    body = exhausted ? (
      <p className="rounded border border-gray-200 bg-white p-6">There is nothing left to classify in this workflow. Thank you!</p>
    ) : (
      <p role="status" aria-live="polite" className="animate-pulse rounded border border-gray-200 bg-white p-6 text-gray-600">
        Loading subjects…
      </p>
    );
  else
    body = (
      <SubjectClassification
        key={subject.id}
        projectId={projectId}
        workflow={workflow}
        subject={subject}
        goldStandard={mayGoldStandard && goldStandard}
        focusFirst={saved > 0}
        slots={{ side, below }}
        primaryLanguage={primaryLanguage}
        language={language}
        onDone={(results) => dispatch({ type: "done", feedback: results })}
      />
    );

  return (
    <div className="flex flex-col gap-3">
      <UnsupportedNote workflow={workflow} />
      <p role="status" aria-live="polite" className="sr-only" data-testid="saved-count">
        {stored ? `Classification saved. ${stored} classified in this session.` : ""}
      </p>
      {mayGoldStandard && (
        <label className="flex items-center gap-2 self-start rounded border border-amber-300 bg-amber-50 px-3 py-1 text-sm">
          <input type="checkbox" checked={goldStandard} onChange={(e) => dispatch({ type: "goldStandard", on: e.target.checked })} />
          Gold standard mode (your classifications become the reference answers)
        </label>
      )}
      <PendingStatus />
      {/* Seen everything: where to go next, above the subject (not below the fold). */}
      {((!subject && exhausted) || subject?.user_has_finished_workflow || subject?.finished_workflow) && (
        <OtherProjects projectId={projectId} />
      )}
      <MiniCourse workflowId={workflow.id} projectId={projectId} classified={saved} primaryLanguage={primaryLanguage} language={language} />
      {/* The subject takes the room; beside it (below it on a phone) the help buttons, then the task; the open
          field guide between the two on a large screen (a sheet over the page on a smaller one). */}
      <div
        data-classifier
        className={
          // The second row takes what the columns beside the subject need beyond it: what is below the subject
          // stays right below it.
          "grid gap-3 sm:gap-4 lg:grid-cols-[minmax(0,1fr)_20rem] lg:grid-rows-[auto_1fr] lg:items-start " +
          "lg:has-[>[data-guide-slot]>dialog[open]:not(:modal)]:grid-cols-[minmax(0,1fr)_18rem_20rem] " +
          "xl:has-[>[data-guide-slot]>dialog[open]:not(:modal)]:grid-cols-[minmax(0,1fr)_22rem_20rem]"
        }
      >
        {subject ? body : <div className="lg:col-start-1 lg:row-start-1">{body}</div>}
        <div
          ref={setGuide}
          data-guide-slot
          className={
            "hidden has-[>dialog[open]]:contents lg:has-[>dialog[open]:not(:modal)]:block lg:sticky lg:top-4 " +
            "lg:col-start-2 lg:row-span-2 lg:row-start-1 lg:self-start"
          }
        />
        <div className="flex flex-col gap-3 sm:gap-4 lg:-col-start-2 lg:row-span-2 lg:row-start-1">
          <div className="flex flex-wrap items-center gap-3">
            <ClassifiedCounter projectId={projectId} session={saved} />
            <FieldGuideButton projectId={projectId} primaryLanguage={primaryLanguage} language={language} slot={guide} />
            <TutorialButton workflowId={workflow.id} projectId={projectId} primaryLanguage={primaryLanguage} language={language} />
            <KeyboardHelpButton />
          </div>
          <div ref={setSide} className="contents" />
        </div>
        <div ref={setBelow} className="flex flex-col gap-2 empty:hidden lg:col-start-1 lg:row-start-2" />
      </div>
      {feedback.length > 0 && <FeedbackModal results={feedback} onClose={() => dispatch({ type: "feedbackClosed" })} />}
      {saved > 0 && <p className="text-sm text-gray-600">{saved} classified in this session.</p>}
    </div>
  );
}
