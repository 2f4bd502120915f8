import Link from "next/link";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { clientAddress, countAttempt, LIMITS } from "@/lib/http/rate-limit";
import { ZodError } from "zod";
import { signIn } from "@/lib/auth/next-auth";
import { registerUser, ZRegisterUser } from "@/lib/domain/register-user";
import { ApiError } from "@/lib/http/api-error";
import { Field } from "@/components/ui/field";

async function signUpAction(form: FormData) {
  "use server";
  const input = {
    login: String(form.get("login") ?? ""),
    email: String(form.get("email") ?? ""),
    password: String(form.get("password") ?? ""),
    display_name: String(form.get("display_name") ?? "") || undefined,
  };
  try {
    await countAttempt(LIMITS.signUpPerAddress, clientAddress(new Request("http://local/", { headers: await headers() })));
    await registerUser(ZRegisterUser.parse(input));
  } catch (err) {
    const message =
      err instanceof ZodError ? err.issues.map((i) => i.message).join("; ") : err instanceof ApiError ? err.message : "Registration failed";
    redirect(`/sign-up?error=${encodeURIComponent(message)}`);
  }
  await signIn("credentials", { login: input.login, password: input.password, redirectTo: "/" });
}

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  const { error } = await searchParams;
  return (
    <div className="mx-auto max-w-sm rounded-lg border border-gray-200 bg-white p-6 shadow-sm">
      <h1 className="mb-4 text-2xl font-bold">Create an account</h1>
      {error && (
        <p role="alert" className="mb-4 rounded bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      )}
      <form action={signUpAction} className="flex flex-col gap-4">
        <Field label="Login" id="login" required minLength={3} maxLength={80} pattern="[A-Za-z0-9_.\-]+" autoComplete="username" />
        <Field label="Display name" id="display_name" autoComplete="nickname" />
        <Field label="Email" id="email" type="email" required autoComplete="email" />
        <Field label="Password (at least 8 characters)" id="password" type="password" required minLength={8} autoComplete="new-password" />
        <button type="submit" className="rounded bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700">
          Register
        </button>
      </form>
      <p className="mt-4 text-sm">
        Already registered?{" "}
        <Link href="/sign-in" className="text-brand-700 underline">
          Sign in
        </Link>
      </p>
    </div>
  );
}
