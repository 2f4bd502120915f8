"use client";
import { useState, type ComponentProps, type FormEvent } from "react";
import { useFormStatus } from "react-dom";
import { Field } from "@/components/ui/field";

// The browser half of the account pages' forms (sign in, sign up, forgot and reset password): fields that
// say what is wrong under themselves instead of in the browser's bubble, a password field that can show
// what was typed, and a submit button that shows the form is being sent. The forms post to server actions,
// so they work without JavaScript too (the browser's own checks then).

/** Messages for the browser's checks, by ValidityState key; the browser's own message otherwise. */
type Messages = Partial<Record<"valueMissing" | "typeMismatch" | "tooShort" | "tooLong" | "patternMismatch", string>>;

function messageOf(input: HTMLInputElement, messages: Messages): string {
  for (const key of ["valueMissing", "typeMismatch", "tooShort", "tooLong", "patternMismatch"] as const)
    if (input.validity[key]) return messages[key] ?? input.validationMessage;
  return input.validationMessage;
}

/**
 * A Field checked as it is left and when the form is sent: the problem is shown under it (tied by
 * aria-describedby) and the first field with one takes the focus. `type="password"` adds a show/hide toggle
 * named `showLabel`, pressed while the password is shown.
 */
export function AccountField({
  messages = {},
  showLabel = "Show password",
  type = "text",
  ...props
}: Omit<ComponentProps<typeof Field>, "error" | "trailing"> & { messages?: Messages; showLabel?: string }) {
  const [error, setError] = useState("");
  const [shown, setShown] = useState(false);
  const check = (input: HTMLInputElement) => setError(input.validity.valid ? "" : messageOf(input, messages));
  const password = type === "password";
  return (
    <Field
      {...props}
      type={password && shown ? "text" : type}
      error={error || undefined}
      onInvalid={(e: FormEvent<HTMLInputElement>) => {
        // Our message instead of the browser's bubble; the first field with a problem takes the focus.
        e.preventDefault();
        const input = e.currentTarget;
        check(input);
        if (input.form?.querySelector(":invalid") === input) input.focus();
      }}
      onBlur={(e) => {
        if (e.currentTarget.value || error) check(e.currentTarget);
      }}
      onInput={(e) => {
        if (error) check(e.currentTarget);
      }}
      trailing={
        password ? (
          <button
            type="button"
            aria-pressed={shown}
            aria-label={showLabel}
            aria-controls={props.id}
            title={showLabel}
            className="shrink-0 rounded border border-gray-300 px-3 text-sm hover:bg-gray-100 aria-pressed:border-brand-600 aria-pressed:bg-brand-50 aria-pressed:text-brand-700"
            onClick={() => setShown((s) => !s)}
          >
            Show
          </button>
        ) : undefined
      }
    />
  );
}

/** An account's email address (sign up, forgot password). */
export function EmailField() {
  return (
    <AccountField
      label="Email"
      id="email"
      type="email"
      required
      autoComplete="email"
      messages={{ valueMissing: "Enter your email address.", typeMismatch: "Enter an email address such as name@example.org." }}
    />
  );
}

/** A new password (sign up, reset): 8 characters at least, 72 at most (bcrypt's limit, lib/auth/password.ts). */
export function NewPasswordField({ label, id, showLabel, missing }: { label: string; id: string; showLabel?: string; missing: string }) {
  return (
    <AccountField
      label={label}
      id={id}
      type="password"
      required
      minLength={8}
      maxLength={72}
      autoComplete="new-password"
      showLabel={showLabel}
      messages={{ valueMissing: missing, tooShort: "The password needs at least 8 characters." }}
    />
  );
}

/** The form's primary button: while the form is being sent it says `busyLabel`, announced, and ignores clicks. */
export function SubmitButton({ children, busyLabel }: { children: string; busyLabel: string }) {
  const { pending } = useFormStatus();
  return (
    <>
      <button
        type="submit"
        aria-disabled={pending || undefined}
        onClick={(e) => {
          if (pending) e.preventDefault();
        }}
        className={
          "mt-1 inline-flex items-center justify-center gap-2 rounded bg-brand-600 px-4 py-2 font-semibold text-white " +
          "hover:bg-brand-700 aria-disabled:cursor-wait aria-disabled:opacity-75"
        }
      >
        {pending && <span aria-hidden="true" className="h-4 w-4 animate-spin rounded-full border-2 border-white border-t-transparent" />}
        {pending ? busyLabel : children}
      </button>
      <span role="status" className="sr-only">
        {pending ? busyLabel : ""}
      </span>
    </>
  );
}
