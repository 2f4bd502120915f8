import type { Metadata } from "next";
import { loadSettings } from "@/lib/pages/account";
import { DeleteAccount, EmailSettings, PasswordSettings, ProfileSettings } from "@/components/volunteer/settings-forms";
import { signedInVisitor } from "../visitor";

export const metadata: Metadata = { title: "Settings" };

export const dynamic = "force-dynamic";

/** The signed-in user's account: display name and languages, email preferences, password, deleting the account. */
export default async function SettingsPage() {
  const actor = await signedInVisitor("/settings");
  const user = await loadSettings(actor.user.id);
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">Settings</h1>
      <ProfileSettings user={user} />
      <EmailSettings user={user} />
      <PasswordSettings />
      <DeleteAccount user={user} />
    </article>
  );
}
