"use client";
import Link from "next/link";
import { Panel } from "@/components/ui/panel";
import { EmptyState } from "@/components/ui/query-state";
import { buttonClass } from "@/components/ui/styles";
import { formatMoment } from "@/lib/text/format";

interface ActionRow {
  id: number;
  kind: string;
  admin: string;
  targetType: string;
  targetId: number;
  target: string | null;
  changes: Record<string, { from: unknown; to: unknown }>;
  reason: string | null;
  createdAt: Date;
}

const FIELD_NAMES: Record<string, string> = {
  approved: "approved",
  beta_approved: "beta approved",
  launch_approved: "launch approved",
  beta_requested: "beta review requested",
  launch_requested: "launch review requested",
  featured: "featured",
  banned: "banned",
  subject_limit: "subject limit",
  upload_whitelist: "upload allowance",
  admin: "admin",
};

const shown = (v: unknown) => (v === null ? "default" : v === true ? "yes" : v === false ? "no" : String(v));

/** What an action did, in words: a refusal by its review, a change field by field. */
function actionText(a: ActionRow): string {
  if (a.kind === "refusal") return `refused the ${"beta_requested" in a.changes ? "beta review" : "launch"}`;
  return Object.entries(a.changes)
    .map(([field, c]) => `${Object.hasOwn(FIELD_NAMES, field) ? FIELD_NAMES[field] : field}: ${shown(c.from)} → ${shown(c.to)}`)
    .join("; ");
}

/** The recorded admin actions (who, what, when), newest first, a page at a time (`?page=` of /admin). */
export function ActionList({ actions }: { actions: { rows: ActionRow[]; page: number; pages: number; total: number } }) {
  const { rows, page, pages } = actions;
  return (
    <Panel id="actions-heading" title="Admin actions">
      {rows.length === 0 ? (
        <EmptyState>No admin action is recorded{page > 1 ? " on this page" : " yet"}.</EmptyState>
      ) : (
        <ol className="flex flex-col divide-y divide-gray-200" aria-label="Admin actions, newest first">
          {rows.map((a) => (
            <li key={a.id} className="flex flex-col gap-0.5 py-2 text-sm" data-testid="admin-action">
              <span>
                <strong>{a.admin}</strong> · {a.targetType}{" "}
                {a.targetType === "project" ? (
                  <Link href={`/projects/${a.targetId}`} className="text-brand-700 underline">
                    {a.target ?? `#${a.targetId}`}
                  </Link>
                ) : (
                  <span className="font-medium">{a.target ?? `#${a.targetId}`}</span>
                )}
              </span>
              <span>
                {actionText(a)}
                {a.reason ? <span className="text-gray-700"> — “{a.reason}”</span> : null}
              </span>
              <time dateTime={new Date(a.createdAt).toISOString()} className="text-xs text-gray-600" suppressHydrationWarning>
                {formatMoment(a.createdAt)}
              </time>
            </li>
          ))}
        </ol>
      )}
      {pages > 1 && (
        <nav aria-label="Admin action pages" className="flex flex-wrap items-center gap-2 text-sm">
          {page > 1 && (
            <Link href={`/admin?page=${page - 1}`} className={buttonClass}>
              Newer
            </Link>
          )}
          <span>
            Page {page} of {pages}
          </span>
          {page < pages && (
            <Link href={`/admin?page=${page + 1}`} className={buttonClass}>
              Older
            </Link>
          )}
        </nav>
      )}
    </Panel>
  );
}
