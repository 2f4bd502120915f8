import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthError, CredentialsSignin } from "next-auth";
import { signIn } from "@/lib/auth/next-auth";
import { AccountCard } from "@/components/ui/account-card";
import { AccountField, SubmitButton } from "@/components/ui/account-form";
import { StatusMessage } from "@/components/ui/status-message";

export const metadata: Metadata = { title: "Sign in" };

/** Where to go after signing in: a path of this site only (never another site: no open redirect). */
function safeReturn(raw: unknown): string {
  return typeof raw === "string" && raw.startsWith("/") && !raw.startsWith("//") && !raw.startsWith("/\\") ? raw : "/";
}

async function signInAction(form: FormData) {
  "use server";
  const returnTo = safeReturn(form.get("return_to"));
  try {
    await signIn("credentials", { login: form.get("login"), password: form.get("password"), redirectTo: returnTo });
  } catch (err) {
    const kind = err instanceof CredentialsSignin && err.code === "rate_limited" ? "limit" : "1";
    if (err instanceof AuthError) redirect(`/sign-in?error=${kind}${returnTo === "/" ? "" : `&return_to=${encodeURIComponent(returnTo)}`}`);
    throw err; // the redirect on success
  }
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string; registered?: string; return_to?: string; reset?: string }>;
}) {
  const { error, return_to, reset } = await searchParams;
  return (
    <AccountCard page="sign-in" title="Sign in" intro="Welcome back. Sign in to classify under your name and build projects in the lab.">
      {error && (
        <StatusMessage
          outcome={{
            kind: "error",
            text: error === "limit" ? "Too many sign-in attempts. Wait a few minutes and try again." : "Invalid login or password.",
          }}
        />
      )}
      {reset && <StatusMessage outcome={{ kind: "ok", text: "Your password has been changed. Sign in with the new one." }} />}
      <form action={signInAction} className="flex flex-col gap-4">
        <input type="hidden" name="return_to" value={safeReturn(return_to)} />
        <AccountField
          label="Login or email"
          id="login"
          required
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          messages={{ valueMissing: "Enter your login or email address." }}
        />
        <AccountField
          label="Password"
          id="password"
          type="password"
          required
          autoComplete="current-password"
          messages={{ valueMissing: "Enter your password." }}
        />
        <SubmitButton busyLabel="Signing in…">Sign in</SubmitButton>
      </form>
    </AccountCard>
  );
}
