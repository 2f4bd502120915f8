import Link from "next/link";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { ApiError } from "@/lib/http/api-error";
import { clientAddress } from "@/lib/http/rate-limit";
import { requestPasswordReset } from "@/lib/domain/accounts";
import { Field } from "@/components/ui/field";

async function requestAction(form: FormData) {
  "use server";
  const email = String(form.get("email") ?? "").slice(0, 255);
  try {
    if (email) await requestPasswordReset(email, clientAddress(new Request("http://local/", { headers: await headers() })));
  } catch (err) {
    if (err instanceof ApiError && err.status === 429) redirect("/forgot-password?limit=1");
    throw err;
  }
  redirect("/forgot-password?sent=1");
}

/** Asks for a password reset link (POST /users/password does the same for the official clients). */
export default async function ForgotPasswordPage({ searchParams }: { searchParams: Promise<{ sent?: string; limit?: string }> }) {
  const { sent, limit } = await searchParams;
  return (
    <div className="mx-auto max-w-sm rounded-lg border border-gray-200 bg-white p-6 shadow-sm">
      <h1 className="mb-4 text-2xl font-bold">Reset your password</h1>
      {limit && (
        <p role="alert" className="mb-4 rounded bg-red-50 p-3 text-sm text-red-800">
          Too many requests for a reset link. Wait a while and try again.
        </p>
      )}
      {sent ? (
        <p role="status" className="rounded bg-green-50 p-3 text-sm text-green-800">
          If the address belongs to an account, a link to reset its password is on its way. It works once, for 6 hours.
        </p>
      ) : (
        <form action={requestAction} className="flex flex-col gap-4">
          <Field label="Email" id="email" type="email" required autoComplete="email" />
          <button type="submit" className="rounded bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700">
            Send me a link
          </button>
        </form>
      )}
      <p className="mt-4 text-sm">
        <Link href="/sign-in" className="text-brand-700 underline">
          Back to sign in
        </Link>
      </p>
    </div>
  );
}
