"use client";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { apiPutFresh } from "@/components/ui/api-client";
import { Alert } from "@/components/ui/alert";
import { buttonClass, primaryButtonClass } from "@/components/ui/controls";
import { Panel } from "@/components/ui/panel";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { formatDay } from "@/lib/text/format";

// The project's way to launch (lib/pages/launch.ts reads it from the established flags): where it stands,
// what it still needs, the one next step, and who can see it.

type Stage = "draft" | "beta_review" | "beta" | "launch_review" | "launched";

export interface LaunchState {
  stage: Stage;
  private: boolean;
  launchDate: Date | null;
  refusal: { review: "beta" | "launch"; at: Date; reason: string | null } | null;
  checklist: { key: string; label: string; done: boolean }[];
  ready: boolean;
}

const STEPS: [Stage, string][] = [
  ["draft", "Draft"],
  ["beta_review", "Beta review"],
  ["beta", "Beta"],
  ["launch_review", "Launch review"],
  ["launched", "Launched"],
];

interface Next {
  /** The button's text and what it sends (none when there is nothing to do). */
  action?: { label: string; body: Record<string, boolean>; done: string; needsReady?: boolean };
  says: string;
}

/** The one next step of each stage, and what happens after it. */
function nextOf(stage: Stage, isPrivate: boolean): Next {
  switch (stage) {
    case "draft":
      return {
        action: {
          label: "Request beta review",
          body: { beta_requested: true, private: false, live: true },
          done: "Beta review requested.",
          needsReady: true,
        },
        says: "An admin checks the project before volunteers test it. Requesting makes it public (anyone with its link can open it; the home page does not list it yet) and live (classifications count towards retirement).",
      };
    case "beta_review":
      return {
        action: { label: "Withdraw the beta review request", body: { beta_requested: false }, done: "Request withdrawn." },
        says: "An admin will review the project. Their answer shows here: approved, the project is in beta; refused, with their reason.",
      };
    case "beta":
      return {
        action: { label: "Request launch review", body: { launch_requested: true }, done: "Launch review requested.", needsReady: true },
        says: "Volunteers can test the project: the home page lists it under “In beta”. When you have their feedback, ask for the launch; once an admin approves it, the home page lists the project.",
      };
    case "launch_review":
      return {
        action: { label: "Withdraw the launch request", body: { launch_requested: false }, done: "Request withdrawn." },
        says: "An admin will review the launch. Their answer shows here: approved, the project is listed on the home page; refused, with their reason.",
      };
    case "launched":
      return {
        says: isPrivate
          ? "The project is launched but private: nobody outside the team can open it, and the home page does not list it. Make it public to list it."
          : "The project is launched and listed on the home page.",
      };
  }
}

/** The launch stepper of the lab's project details page. */
export function LaunchStepper({ projectId, state }: { projectId: number; state: LaunchState }) {
  const router = useRouter();
  const { busy, outcome, run } = useAction();
  const current = STEPS.findIndex(([s]) => s === state.stage);
  const next = nextOf(state.stage, state.private);
  const put = (body: Record<string, boolean>, done: string) =>
    run(async () => {
      await apiPutFresh(`/projects/${projectId}`, { projects: body });
      router.refresh();
      return done;
    });
  // The visibility chosen shows at once; the server's answer (the page refreshed) has the last word, and a
  // refused change puts the choice back.
  const [chosenPrivate, setChosenPrivate] = useState(state.private);
  useEffect(() => setChosenPrivate(state.private), [state.private]);
  const setVisibility = (p: boolean) => {
    setChosenPrivate(p);
    return run(async () => {
      try {
        await apiPutFresh(`/projects/${projectId}`, { projects: { private: p } });
      } catch (err) {
        setChosenPrivate(state.private);
        throw err;
      }
      router.refresh();
      return p ? "The project is private." : "The project is public.";
    });
  };
  const blocked = next.action?.needsReady && !state.ready;
  return (
    <Panel id="launch-heading" title="Launch">
      {/* A column of rows on a phone (five columns leave no room for "Launch review"), a row of five above. */}
      <ol className="flex flex-col gap-1 text-sm sm:grid sm:grid-cols-5 sm:text-center" aria-label="Stages">
        {STEPS.map(([stage, label], i) => (
          <li
            key={stage}
            aria-current={i === current ? "step" : undefined}
            className={`flex items-center gap-2 rounded px-3 py-1.5 sm:flex-col sm:gap-1 sm:px-1 sm:py-2 ${
              i === current
                ? "bg-brand-600 font-semibold text-white"
                : i < current
                  ? "bg-brand-50 text-brand-700"
                  : "bg-gray-100 text-gray-700"
            }`}
          >
            <span aria-hidden>{i < current ? "✓" : i + 1}</span>
            <span>{label}</span>
            {i < current && <span className="sr-only">(done)</span>}
          </li>
        ))}
      </ol>
      <p data-testid="launch-stage">
        Now: <strong>{STEPS[current][1]}</strong>
        {state.stage === "launched" && state.launchDate ? ` since ${formatDay(state.launchDate)}` : ""}
      </p>
      {state.refusal && (
        <Alert as="div">
          An admin refused the {state.refusal.review === "beta" ? "beta review" : "launch"} on {formatDay(state.refusal.at)}.{" "}
          {state.refusal.reason ? (
            <>
              Their reason: <q>{state.refusal.reason}</q>{" "}
            </>
          ) : null}
          Change what is needed, then ask again.
        </Alert>
      )}
      {state.stage !== "launched" && <Checklist items={state.checklist} />}
      <p className="text-sm text-gray-700">{blocked ? "Complete the checklist above to ask for a review." : next.says}</p>
      {next.action && (
        <button
          type="button"
          className={`self-start ${next.action.needsReady ? primaryButtonClass : buttonClass}`}
          disabled={busy || blocked}
          onClick={() => next.action && void put(next.action.body, next.action.done)}
        >
          {next.action.label}
        </button>
      )}
      <StatusMessage outcome={outcome} busy={busy} />
      <Visibility isPrivate={chosenPrivate} busy={busy} onChange={(p) => void setVisibility(p)} />
    </Panel>
  );
}

function Checklist({ items }: { items: LaunchState["checklist"] }) {
  return (
    <div>
      <h3 className="text-sm font-semibold">Before a review</h3>
      <ul className="mt-1 flex flex-col gap-1 text-sm">
        {items.map((c) => (
          <li key={c.key} className={c.done ? "text-green-800" : "text-amber-800"} data-testid={`ready-${c.key}`}>
            <span aria-hidden>{c.done ? "✓" : "○"}</span> {c.label}
            <span className="sr-only">{c.done ? ": done" : ": still to do"}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Who can open the project: the team only, or anyone with its link (listing follows the stage). */
function Visibility({ isPrivate, busy, onChange }: { isPrivate: boolean; busy: boolean; onChange(p: boolean): void }) {
  return (
    <fieldset className="flex flex-col gap-1 text-sm">
      <legend className="w-full border-t border-gray-200 pt-3 font-semibold">Who can open the project</legend>
      <label className="flex items-center gap-2">
        <input type="radio" name="visibility" checked={isPrivate} disabled={busy} onChange={() => onChange(true)} />
        Only the team (private)
      </label>
      <label className="flex items-center gap-2">
        <input type="radio" name="visibility" checked={!isPrivate} disabled={busy} onChange={() => onChange(false)} />
        Anyone with its link (public)
      </label>
      <p className="text-xs text-gray-600">
        Public is not listed: the home page lists a project only once its launch is approved (and, under “In beta”, while it is in beta).
      </p>
    </fieldset>
  );
}
