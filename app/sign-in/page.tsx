import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthError, CredentialsSignin } from "next-auth";
import { signIn } from "@/lib/auth/next-auth";
import { Field } from "@/components/ui/field";

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
    <div className="mx-auto max-w-sm rounded-lg border border-gray-200 bg-white p-6 shadow-sm">
      <h1 className="mb-4 text-2xl font-bold">Sign in</h1>
      {error && (
        <p role="alert" className="mb-4 rounded bg-red-50 p-3 text-sm text-red-800">
          {error === "limit" ? "Too many sign-in attempts. Wait a few minutes and try again." : "Invalid login or password."}
        </p>
      )}
      {reset && (
        <p role="status" className="mb-4 rounded bg-green-50 p-3 text-sm text-green-800">
          Your password has been changed. Sign in with the new one.
        </p>
      )}
      <form action={signInAction} className="flex flex-col gap-4">
        <input type="hidden" name="return_to" value={safeReturn(return_to)} />
        <Field label="Login or email" id="login" required autoComplete="username" />
        <Field label="Password" id="password" type="password" required autoComplete="current-password" />
        <button type="submit" className="rounded bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700">
          Sign in
        </button>
      </form>
      <p className="mt-4 text-sm">
        <Link href="/forgot-password" className="text-brand-700 underline">
          Forgot your password?
        </Link>
      </p>
      <p className="mt-2 text-sm">
        New here?{" "}
        <Link href="/sign-up" className="text-brand-700 underline">
          Create an account
        </Link>
      </p>
    </div>
  );
}
