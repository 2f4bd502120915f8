import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { ZodError } from "zod";
import { resetPassword, ZResetPassword } from "@/lib/domain/accounts";
import { AppError } from "@/lib/errors";
import { AccountCard } from "@/components/ui/account-card";
import { NewPasswordField, SubmitButton } from "@/components/ui/account-form";
import { StatusMessage } from "@/components/ui/status-message";

export const metadata: Metadata = { title: "Choose a new password" };

async function resetAction(form: FormData) {
  "use server";
  const token = String(form.get("reset_password_token") ?? "");
  try {
    const { user } = ZResetPassword.parse({
      user: {
        reset_password_token: token,
        password: String(form.get("password") ?? ""),
        password_confirmation: String(form.get("password_confirmation") ?? ""),
      },
    });
    await resetPassword(user);
  } catch (err) {
    const message =
      err instanceof ZodError
        ? err.issues.map((i) => i.message).join("; ")
        : err instanceof AppError
          ? err.message
          : "The password could not be changed";
    redirect(`/reset-password?reset_password_token=${encodeURIComponent(token)}&error=${encodeURIComponent(message)}`);
  }
  redirect("/sign-in?reset=1");
}

/** The page the reset link opens: a new password, twice (PUT /users/password does the same for clients). */
export default async function ResetPasswordPage({
  searchParams,
}: {
  searchParams: Promise<{ reset_password_token?: string; error?: string }>;
}) {
  const { reset_password_token: token, error } = await searchParams;
  return (
    <AccountCard page="reset-password" title="Choose a new password">
      {error && <StatusMessage outcome={{ kind: "error", text: error }} />}
      {token ? (
        <form action={resetAction} className="flex flex-col gap-4">
          <input type="hidden" name="reset_password_token" value={token} />
          <NewPasswordField
            label="New password (at least 8 characters)"
            id="password"
            showLabel="Show new password"
            missing="Choose a new password."
          />
          <NewPasswordField
            label="New password again"
            id="password_confirmation"
            showLabel="Show new password again"
            missing="Type the new password again."
          />
          <SubmitButton busyLabel="Changing your password…">Change password</SubmitButton>
        </form>
      ) : (
        <>
          <StatusMessage outcome={{ kind: "error", text: "This page needs the link from the email." }} />
          <p className="text-sm">
            <Link href="/forgot-password" className="font-medium text-brand-700 underline">
              Ask for a new link
            </Link>{" "}
            if yours is lost or has expired.
          </p>
        </>
      )}
    </AccountCard>
  );
}
