"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiGet, apiPutFresh } from "@/components/ui/api-client";
import { buttonClass, dangerButtonClass, primaryButtonClass } from "@/components/ui/controls";
import { Field } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";
import { QueryState } from "@/components/ui/query-state";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import type { Records, FullUserRecord } from "@/components/ui/wire-types";
import { formatNumber } from "@/lib/text/format";

/**
 * The API's exact lookups, never a pattern: an address (it has an @) by the admins-only email filter, else a
 * login; both compare case-insensitively.
 */
const lookupPath = (term: string) => `/users?${term.includes("@") ? "email" : "login"}=${encodeURIComponent(term)}&page_size=10`;

/** Finds a user by login or email, then bans or unbans them, sets their subject limit, grants or revokes admin. */
export function UserLookup({ adminId }: { adminId: number }) {
  const [draft, setDraft] = useState("");
  const [term, setTerm] = useState("");
  const found = useQuery({
    queryKey: ["admin-user-lookup", term],
    queryFn: async () => (await apiGet<Records<"users", FullUserRecord>>(lookupPath(term))).users,
    enabled: term !== "",
    staleTime: 0,
  });
  return (
    <Panel id="users-heading" title="Users">
      <form
        role="search"
        aria-label="Find a user"
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          setTerm(draft.trim().replaceAll(",", ""));
        }}
      >
        <div className="min-w-0 flex-1">
          <Field
            id="admin-user-term"
            label="Login or email (exact)"
            value={draft}
            onChange={setDraft}
            autoComplete="off"
            required
            maxLength={255}
          />
        </div>
        <button type="submit" className={primaryButtonClass}>
          Find
        </button>
      </form>
      {term && (
        <QueryState query={found} what="users" empty={`No user has the login or email “${term}”.`}>
          <ul className="flex flex-col gap-3">
            {found.data?.map((u) => (
              <UserCard key={u.id} user={u} self={Number(u.id) === adminId} />
            ))}
          </ul>
        </QueryState>
      )}
    </Panel>
  );
}

function UserCard({ user: u, self }: { user: FullUserRecord; self: boolean }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const { busy, outcome, run } = useAction();
  const [limit, setLimit] = useState(u.subject_limit === null ? "" : String(u.subject_limit));
  const change = (users: Record<string, unknown>, said: string) =>
    run(async () => {
      await apiPutFresh(`/users/${u.id}`, { users });
      await queryClient.invalidateQueries({ queryKey: ["admin-user-lookup"] });
      router.refresh();
      return said;
    });
  return (
    <li className="flex flex-col gap-3 rounded border border-gray-200 p-3" data-testid={`user-${u.login}`}>
      <div>
        <h3 className="font-semibold">
          {u.display_name} <span className="font-normal text-gray-600">({u.login})</span>
        </h3>
        <p className="text-sm break-all text-gray-600">{u.email}</p>
        <p className="text-sm">
          {u.banned ? <strong className="text-red-700">Banned</strong> : "Active"}
          {u.admin ? " · admin" : ""} · {formatNumber(u.uploaded_subjects_count)} subject{u.uploaded_subjects_count === 1 ? "" : "s"}{" "}
          uploaded
        </p>
      </div>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void change({ subject_limit: limit.trim() === "" ? null : Number(limit) }, `Subject limit of ${u.login} saved.`);
        }}
      >
        <Field
          id={`subject-limit-${u.id}`}
          label="Subject limit"
          hint="Empty: the platform's default."
          type="number"
          min={0}
          max={2_147_483_647}
          step={1}
          inputMode="numeric"
          value={limit}
          onChange={setLimit}
        />
        <button type="submit" className={buttonClass} disabled={busy}>
          Save limit<span className="sr-only"> of {u.login}</span>
        </button>
      </form>
      <div className="flex flex-wrap gap-2">
        {u.banned ? (
          <button
            type="button"
            className={buttonClass}
            disabled={busy}
            onClick={() => void change({ banned: false }, `${u.login} unbanned.`)}
          >
            Unban {u.login}
          </button>
        ) : (
          <button
            type="button"
            className={dangerButtonClass}
            disabled={busy || self}
            onClick={() => void change({ banned: true }, `${u.login} banned: their sessions and tokens have ended.`)}
          >
            Ban {u.login}
          </button>
        )}
        <button
          type="button"
          className={buttonClass}
          disabled={busy || (self && u.admin)}
          onClick={() => void change({ admin: !u.admin }, `${u.login} ${u.admin ? "is no longer an admin" : "is now an admin"}.`)}
        >
          {u.admin ? `Revoke admin of ${u.login}` : `Make ${u.login} an admin`}
        </button>
      </div>
      {self && <p className="text-xs text-gray-600">This is you: an admin cannot ban themself or revoke their own admin.</p>}
      <StatusMessage outcome={outcome} busy={busy} />
    </li>
  );
}
