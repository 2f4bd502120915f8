import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { clientAddress } from "@/lib/net/peer-address";
import { ZodError } from "zod";
import { signIn } from "@/lib/auth/next-auth";
import { signUp, ZRegisterUser } from "@/lib/domain/register-user";
import { AppError } from "@/lib/errors";
import { AccountCard } from "@/components/ui/account-card";
import { AccountField, EmailField, NewPasswordField, SubmitButton } from "@/components/ui/account-form";
import { StatusMessage } from "@/components/ui/status-message";

export const metadata: Metadata = { title: "Create an account" };

async function signUpAction(form: FormData) {
  "use server";
  const input = {
    login: String(form.get("login") ?? ""),
    email: String(form.get("email") ?? ""),
    password: String(form.get("password") ?? ""),
    display_name: String(form.get("display_name") ?? "") || undefined,
  };
  try {
    await signUp(ZRegisterUser.parse(input), clientAddress(new Request("http://local/", { headers: await headers() })));
  } catch (err) {
    const message =
      err instanceof ZodError ? err.issues.map((i) => i.message).join("; ") : err instanceof AppError ? err.message : "Registration failed";
    redirect(`/sign-up?error=${encodeURIComponent(message)}`);
  }
  await signIn("credentials", { login: input.login, password: input.password, redirectTo: "/" });
}

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  const { error } = await searchParams;
  return (
    <AccountCard
      page="sign-up"
      title="Create an account"
      intro="Your classifications are credited to you, and you can build projects of your own."
    >
      {error && <StatusMessage outcome={{ kind: "error", text: error }} />}
      <form action={signUpAction} className="flex flex-col gap-4">
        <AccountField
          label="Login"
          id="login"
          required
          minLength={3}
          maxLength={80}
          pattern="[A-Za-z0-9_.\-]+"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          hint="3 to 80 letters, digits, _ . or -; you sign in with it."
          messages={{
            valueMissing: "Choose a login.",
            tooShort: "The login needs at least 3 characters.",
            patternMismatch: "Use only letters, digits, _ . and -.",
          }}
        />
        <AccountField label="Display name" id="display_name" autoComplete="nickname" hint="Optional: the name others see." />
        <EmailField />
        <NewPasswordField label="Password (at least 8 characters)" id="password" missing="Choose a password." />
        <SubmitButton busyLabel="Creating your account…">Register</SubmitButton>
      </form>
    </AccountCard>
  );
}
