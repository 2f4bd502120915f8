import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AppError } from "@/lib/errors";
import { clientAddress } from "@/lib/net/peer-address";
import { requestPasswordReset } from "@/lib/domain/accounts";
import { AccountCard } from "@/components/ui/account-card";
import { EmailField, SubmitButton } from "@/components/ui/account-form";
import { StatusMessage } from "@/components/ui/status-message";

export const metadata: Metadata = { title: "Reset your password" };

async function requestAction(form: FormData) {
  "use server";
  const email = String(form.get("email") ?? "").slice(0, 255);
  try {
    if (email) await requestPasswordReset(email, clientAddress(new Request("http://local/", { headers: await headers() })));
  } catch (err) {
    if (err instanceof AppError && err.code === "rate_limited") redirect("/forgot-password?limit=1");
    throw err;
  }
  redirect("/forgot-password?sent=1");
}

/** Asks for a password reset link (POST /users/password does the same for the official clients). */
export default async function ForgotPasswordPage({ searchParams }: { searchParams: Promise<{ sent?: string; limit?: string }> }) {
  const { sent, limit } = await searchParams;
  return (
    <AccountCard
      page="forgot-password"
      title="Reset your password"
      intro="Give the email address of your account and we will send it a link to choose a new password."
    >
      {limit && <StatusMessage outcome={{ kind: "error", text: "Too many requests for a reset link. Wait a while and try again." }} />}
      {sent ? (
        <StatusMessage
          outcome={{
            kind: "ok",
            text: "If the address belongs to an account, a link to reset its password is on its way. It works once, for 6 hours.",
          }}
        />
      ) : (
        <form action={requestAction} className="flex flex-col gap-4">
          <EmailField />
          <SubmitButton busyLabel="Sending…">Send me a link</SubmitButton>
        </form>
      )}
    </AccountCard>
  );
}
