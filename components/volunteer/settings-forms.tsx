"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiDelete, apiPutFresh, request } from "@/components/ui/api-client";
import { buttonClass, Check, dangerButtonClass, primaryButtonClass, TextInput } from "@/components/ui/controls";
import { Panel } from "@/components/ui/panel";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";

/** The signed-in user's fields the settings page edits (lib/pages/account.ts reads them). */
export interface SettingsUser {
  id: number;
  login: string;
  email: string;
  displayName: string;
  languages: string[];
  globalEmailCommunication: boolean;
  projectEmailCommunication: boolean;
  betaEmailCommunication: boolean;
}

/** PUT /api/users/<id> with the record's ETag; the page is read again (the header shows a new name). */
function useSaveUser(id: number) {
  const router = useRouter();
  const save = useAction();
  const run = (users: object, done: string) =>
    save.run(async () => {
      await apiPutFresh(`/users/${id}`, { users });
      router.refresh();
      return done;
    });
  return { ...save, save: run };
}

export function ProfileSettings({ user }: { user: SettingsUser }) {
  const [name, setName] = useState(user.displayName);
  const [languages, setLanguages] = useState(user.languages.join(", "));
  const { save, busy, outcome } = useSaveUser(user.id);
  return (
    <Panel id="settings-profile" title="Profile">
      <form
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          const codes = [
            ...new Set(
              languages
                .split(",")
                .map((l) => l.trim().toLowerCase())
                .filter(Boolean),
            ),
          ];
          void save({ display_name: name.trim(), languages: codes }, "Profile saved.");
        }}
      >
        <TextInput label="Display name" value={name} onChange={setName} required />
        <TextInput label="Languages (codes, comma-separated: en, fr, es)" value={languages} onChange={setLanguages} />
        <p className="text-sm text-gray-600">
          Login <strong>{user.login}</strong> · email <strong>{user.email}</strong>
        </p>
        <button type="submit" className={`${primaryButtonClass} self-start`} disabled={busy || !name.trim()}>
          Save profile
        </button>
        <StatusMessage outcome={outcome} busy={busy} />
      </form>
    </Panel>
  );
}

const EMAILS = [
  ["global_email_communication", "globalEmailCommunication", "News and updates from Quorum"],
  ["project_email_communication", "projectEmailCommunication", "Updates from the projects I classify on"],
  ["beta_email_communication", "betaEmailCommunication", "Invitations to test new projects"],
] as const;

export function EmailSettings({ user }: { user: SettingsUser }) {
  const [prefs, setPrefs] = useState(() => Object.fromEntries(EMAILS.map(([wire, field]) => [wire, user[field]])));
  const { save, busy, outcome } = useSaveUser(user.id);
  return (
    <Panel id="settings-email" title="Email">
      <form
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          void save(prefs, "Email preferences saved.");
        }}
      >
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium">Send me email about</legend>
          {EMAILS.map(([wire, , label]) => (
            <Check key={wire} label={label} checked={prefs[wire]} onChange={(v) => setPrefs((p) => ({ ...p, [wire]: v }))} />
          ))}
        </fieldset>
        <button type="submit" className={`${primaryButtonClass} self-start`} disabled={busy}>
          Save email preferences
        </button>
        <StatusMessage outcome={outcome} busy={busy} />
      </form>
    </Panel>
  );
}

export function PasswordSettings() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [again, setAgain] = useState("");
  const change = useAction();
  return (
    <Panel id="settings-password" title="Password">
      <form
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          void change.run(async () => {
            if (next !== again) throw new Error("The new password and its confirmation differ.");
            await request("account", "/users", {
              method: "PUT",
              json: { user: { current_password: current, password: next, password_confirmation: again } },
            });
            setCurrent("");
            setNext("");
            setAgain("");
            return "Password changed. Other browsers signed in as you are signed out.";
          });
        }}
      >
        <TextInput label="Current password" type="password" value={current} onChange={setCurrent} required />
        <TextInput label="New password" type="password" value={next} onChange={setNext} required />
        <TextInput label="New password again" type="password" value={again} onChange={setAgain} required />
        <button type="submit" className={`${primaryButtonClass} self-start`} disabled={change.busy}>
          Change password
        </button>
        <StatusMessage outcome={change.outcome} busy={change.busy} />
      </form>
    </Panel>
  );
}

export function DeleteAccount({ user }: { user: SettingsUser }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useAction();
  return (
    <Panel id="settings-delete" title="Delete account">
      {confirming ? (
        <div
          role="group"
          aria-label="Confirm deleting your account"
          className="flex flex-col gap-3 rounded border border-red-200 bg-red-50 p-3 text-sm"
        >
          <p className="font-semibold">Delete the account {user.login}?</p>
          <ul className="list-disc pl-5">
            <li>You are signed out everywhere and can never sign in with this account again.</li>
            <li>Your login, email address and name are erased; no email is sent to you any more.</li>
            <li>Your classifications stay with the projects you helped, and your collections stay, under “Deleted user”.</li>
            <li>This cannot be undone.</li>
          </ul>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className={dangerButtonClass}
              disabled={remove.busy}
              onClick={() =>
                void remove.run(async () => {
                  await apiDelete(`/users/${user.id}`);
                  window.location.assign("/");
                })
              }
            >
              Delete my account
            </button>
            <button type="button" className={buttonClass} onClick={() => setConfirming(false)}>
              Keep my account
            </button>
          </div>
          <StatusMessage outcome={remove.outcome} busy={remove.busy} />
        </div>
      ) : (
        <p className="flex flex-wrap items-center gap-3 text-sm">
          <span>Erase your account and sign out for good.</span>
          <button type="button" className={buttonClass} onClick={() => setConfirming(true)}>
            Delete account…
          </button>
        </p>
      )}
    </Panel>
  );
}
