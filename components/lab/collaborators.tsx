"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiDeleteFresh, apiGet, apiPost, apiPutFresh } from "@/components/ui/api-client";
import { Field } from "@/components/ui/field";
import { QueryState } from "@/components/ui/query-state";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { buttonClass, primaryButtonClass } from "@/components/ui/controls";
import type { ProjectRoleRecord, Records, UserRecord } from "@/components/ui/wire-types";

/** The roles a project's team gives (the owner's is fixed), with what each may do. */
const ROLES: [role: string, what: string][] = [
  ["collaborator", "edits the project, its workflows and subjects"],
  ["scientist", "sees a private project; listed in the team"],
  ["moderator", "sees a private project; listed in the team"],
  ["expert", "sees a private project; may classify gold standard"],
  ["tester", "sees a private project to try it"],
  ["translator", "writes the project's texts in other languages"],
];

function RoleBoxes({
  idPrefix,
  who,
  value,
  onChange,
  disabled,
}: {
  idPrefix: string;
  who: string;
  value: string[];
  onChange: (v: string[]) => void;
  disabled?: boolean;
}) {
  return (
    <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
      <legend className="sr-only">Roles of {who}</legend>
      {ROLES.map(([role, what]) => (
        <label key={role} className="flex items-center gap-1" title={what}>
          <input
            id={`${idPrefix}-${role}`}
            type="checkbox"
            disabled={disabled}
            checked={value.includes(role)}
            onChange={(e) => onChange(e.target.checked ? [...value, role] : value.filter((r) => r !== role))}
          />
          {role}
          <span className="sr-only"> for {who}</span>
        </label>
      ))}
    </fieldset>
  );
}

function Member({ record, onChanged }: { record: ProjectRoleRecord; onChanged: () => Promise<unknown> }) {
  const owner = record.roles.includes("owner");
  const who = record.links.owner.display_name;
  const [roles, setRoles] = useState(record.roles.filter((r) => r !== "owner"));
  const { busy, outcome: status, run } = useAction();
  const act = (what: () => Promise<unknown>, done: string) =>
    run(async () => {
      await what();
      await onChanged();
      return done;
    });
  return (
    <li className="flex flex-col gap-2 rounded border border-gray-200 bg-white p-3">
      <p className="font-medium">
        {who} {owner && <span className="text-sm font-normal text-gray-600">(owner)</span>}
      </p>
      {owner ? (
        <p className="text-sm text-gray-600">The owner&apos;s role is fixed.</p>
      ) : (
        <>
          <RoleBoxes idPrefix={`member-${record.id}`} who={who} value={roles} onChange={setRoles} disabled={busy} />
          <div className="flex gap-2">
            <button
              type="button"
              disabled={busy}
              className={buttonClass}
              onClick={() => void act(() => apiPutFresh(`/project_roles/${record.id}`, { project_roles: { roles } }), "Roles saved.")}
            >
              Save roles<span className="sr-only"> of {who}</span>
            </button>
            <button
              type="button"
              disabled={busy}
              className="rounded border border-red-300 px-3 py-1 text-sm text-red-800 hover:bg-red-50"
              onClick={() => void act(() => apiDeleteFresh(`/project_roles/${record.id}`), "Removed.")}
            >
              Remove {who}
            </button>
          </div>
        </>
      )}
      <StatusMessage outcome={status} />
    </li>
  );
}

/** The project's team: everyone with a role, their roles changed or removed, and new collaborators invited by login. */
export function Collaborators({ projectId }: { projectId: number }) {
  const team = useQuery({
    queryKey: ["lab-project-roles", projectId],
    queryFn: async () =>
      (await apiGet<Records<"project_roles", ProjectRoleRecord>>(`/project_roles?project_id=${projectId}&page_size=100`)).project_roles,
    staleTime: 0,
  });
  const [login, setLogin] = useState("");
  const [roles, setRoles] = useState<string[]>(["collaborator"]);
  const { busy, outcome: status, run } = useAction();

  return (
    <div className="flex flex-col gap-4">
      <section aria-labelledby="team-heading" className="flex flex-col gap-2">
        <h2 id="team-heading" className="text-lg font-semibold">
          Team
        </h2>
        <QueryState query={team} what="team">
          <ul className="flex flex-col gap-2">
            {team.data?.map((r) => (
              <Member key={`${r.id}:${r.roles.join(",")}`} record={r} onChanged={() => team.refetch()} />
            ))}
          </ul>
        </QueryState>
      </section>
      <form
        className="flex flex-col gap-3 rounded-lg border border-gray-200 bg-white p-4"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const found = await apiGet<Records<"users", UserRecord>>(`/users?login=${encodeURIComponent(login.trim())}`);
            const user = found.users[0];
            if (!user) throw new Error(`No volunteer has the login “${login.trim()}”`);
            if (!roles.length) throw new Error("Choose at least one role");
            await apiPost("/project_roles", { project_roles: { roles, links: { project: String(projectId), user: user.id } } });
            await team.refetch();
            setLogin("");
            return `${user.display_name} joined the team as ${roles.join(", ")}.`;
          });
        }}
      >
        <h2 className="text-lg font-semibold">Invite someone</h2>
        <Field id="invite-login" label="Their login" required value={login} onChange={setLogin} autoComplete="off" />
        <RoleBoxes idPrefix="invite" who="the new member" value={roles} onChange={setRoles} disabled={busy} />
        <button type="submit" disabled={busy} className={`self-start ${primaryButtonClass}`}>
          {busy ? "Inviting…" : "Invite"}
        </button>
        <StatusMessage outcome={status} />
      </form>
    </div>
  );
}
