import Link from "next/link";
import { redirect } from "next/navigation";
import { ZodError } from "zod";
import { resetPassword, ZResetPassword } from "@/lib/domain/accounts";
import { ApiError } from "@/lib/http/api-error";
import { Field } from "@/components/ui/field";

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
        : err instanceof ApiError
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
    <div className="mx-auto max-w-sm rounded-lg border border-gray-200 bg-white p-6 shadow-sm">
      <h1 className="mb-4 text-2xl font-bold">Choose a new password</h1>
      {error && (
        <p role="alert" className="mb-4 rounded bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      )}
      {token ? (
        <form action={resetAction} className="flex flex-col gap-4">
          <input type="hidden" name="reset_password_token" value={token} />
          <Field
            label="New password (at least 8 characters)"
            id="password"
            type="password"
            required
            minLength={8}
            maxLength={72}
            autoComplete="new-password"
          />
          <Field
            label="New password again"
            id="password_confirmation"
            type="password"
            required
            minLength={8}
            maxLength={72}
            autoComplete="new-password"
          />
          <button type="submit" className="rounded bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700">
            Change password
          </button>
        </form>
      ) : (
        <p role="alert" className="text-sm">
          This page needs the link from the email.{" "}
          <Link href="/forgot-password" className="text-brand-700 underline">
            Ask for a new one
          </Link>
          .
        </p>
      )}
    </div>
  );
}
