"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiPost, apiPutFresh } from "@/components/ui/api-client";
import { buttonClass, dangerButtonClass, primaryButtonClass, TextBox } from "@/components/ui/controls";
import { Panel } from "@/components/ui/panel";
import { EmptyState } from "@/components/ui/query-state";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { formatMoment } from "@/lib/text/format";

export interface ReviewItem {
  review: "beta" | "launch";
  id: number;
  displayName: string;
  owner: string;
  private: boolean;
  updatedAt: Date;
  checklist: { key: string; label: string; done: boolean }[];
}

/** Projects asking for a beta or launch review, each approved or refused (with a reason the team reads in the lab). */
export function ReviewQueue({ items }: { items: ReviewItem[] }) {
  // One action for the queue: its outcome stays when the answered project leaves the list.
  const action = useAction();
  return (
    <Panel id="queue-heading" title={`Review queue (${items.length})`}>
      <StatusMessage outcome={action.outcome} busy={action.busy} />
      {items.length === 0 ? (
        <EmptyState>No project is waiting for a review.</EmptyState>
      ) : (
        <ul className="flex flex-col gap-3">
          {items.map((item) => (
            <ReviewCard key={`${item.review}-${item.id}`} item={item} action={action} />
          ))}
        </ul>
      )}
    </Panel>
  );
}

function ReviewCard({ item, action }: { item: ReviewItem; action: ReturnType<typeof useAction> }) {
  const router = useRouter();
  const { busy, run } = action;
  const [refusing, setRefusing] = useState(false);
  const [reason, setReason] = useState("");
  const what = item.review === "beta" ? "beta review" : "launch";
  const approve = () =>
    run(async () => {
      const flag = item.review === "beta" ? "beta_approved" : "launch_approved";
      await apiPutFresh(`/projects/${item.id}`, { projects: { [flag]: true } });
      router.refresh();
      return `${item.displayName}: ${what} approved.`;
    });
  const refuse = () =>
    run(async () => {
      await apiPost(`/projects/${item.id}/review_refusals`, { review_refusals: { review: item.review, reason: reason.trim() || null } });
      setRefusing(false);
      router.refresh();
      return `${item.displayName}: ${what} refused.`;
    });
  return (
    <li className="flex flex-col gap-2 rounded border border-gray-200 p-3" data-testid={`review-${item.review}-${item.id}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold">
          <Link href={`/projects/${item.id}`} className="text-brand-700 underline">
            {item.displayName}
          </Link>
        </h3>
        <span className="rounded bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700">
          {item.review === "beta" ? "Beta review" : "Launch review"}
        </span>
      </div>
      <p className="text-sm text-gray-600">
        by {item.owner} · last changed{" "}
        <time dateTime={new Date(item.updatedAt).toISOString()} suppressHydrationWarning>
          {formatMoment(item.updatedAt)}
        </time>
        {item.private ? " · private (volunteers cannot open it)" : ""}
      </p>
      <ul className="grid gap-1 text-sm sm:grid-cols-2" aria-label={`Readiness of ${item.displayName}`}>
        {item.checklist.map((c) => (
          <li key={c.key} className={c.done ? "text-green-800" : "text-amber-800"}>
            <span aria-hidden>{c.done ? "✓" : "✗"}</span> {c.label}
            <span className="sr-only">{c.done ? ": done" : ": missing"}</span>
          </li>
        ))}
      </ul>
      {refusing ? (
        <div className="flex flex-col gap-2">
          <TextBox
            label={`Why the ${what} is refused (the team reads it in the lab; optional)`}
            value={reason}
            onChange={setReason}
            rows={3}
          />
          <div className="flex flex-wrap gap-2">
            <button type="button" className={dangerButtonClass} disabled={busy} onClick={() => void refuse()}>
              Refuse the {what}
            </button>
            <button type="button" className={buttonClass} onClick={() => setRefusing(false)}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap gap-2">
          <button type="button" className={primaryButtonClass} disabled={busy} onClick={() => void approve()}>
            Approve {what}
            <span className="sr-only"> of {item.displayName}</span>
          </button>
          <button type="button" className={buttonClass} disabled={busy} onClick={() => setRefusing(true)}>
            Refuse…
            <span className="sr-only">
              {" "}
              the {what} of {item.displayName}
            </span>
          </button>
        </div>
      )}
    </li>
  );
}
