"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiDeleteFresh } from "@/components/ui/api-client";
import { Field } from "@/components/ui/field";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";

/** Deleting a project, confirmed by typing its name (the button stays disabled until it matches). */
export function DeleteProject({ projectId, name }: { projectId: number; name: string }) {
  const router = useRouter();
  const [typed, setTyped] = useState("");
  const { busy, outcome: status, run } = useAction();
  return (
    <section aria-labelledby="delete-heading" className="flex flex-col gap-2 rounded-lg border border-red-300 bg-white p-4">
      <h2 id="delete-heading" className="text-lg font-semibold text-red-800">
        Delete this project
      </h2>
      <p className="text-sm">Its workflows, subject sets and pages go with it. This cannot be undone.</p>
      <form
        className="flex flex-col gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await apiDeleteFresh(`/projects/${projectId}`);
            router.push("/lab");
            router.refresh();
          });
        }}
      >
        <Field
          id="delete-confirm"
          label={`Type the project's name (${name}) to confirm`}
          value={typed}
          autoComplete="off"
          onChange={setTyped}
        />
        <button
          type="submit"
          disabled={busy || typed.trim() !== name}
          className="self-start rounded bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800 disabled:opacity-50"
        >
          {busy ? "Deleting…" : "Delete project"}
        </button>
        <StatusMessage outcome={status} />
      </form>
    </section>
  );
}
