"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiPost } from "@/components/ui/api-client";
import { Field } from "@/components/ui/field";
import type { CreatedRecord, Records } from "@/components/ui/wire-types";

/** Creates a project through the API (the session is the owner) and opens it in the lab. */
export function NewProjectForm() {
  const router = useRouter();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [hidden, setHidden] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="flex max-w-xl flex-col gap-3 rounded-lg border border-gray-200 bg-white p-4"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        try {
          const body = await apiPost<Records<"projects", CreatedRecord>>("/projects", {
            projects: { display_name: name, description, private: hidden, primary_language: "en" },
          });
          router.push(`/lab/projects/${body.projects[0].id}`);
        } catch (err) {
          setError((err as Error).message);
          setBusy(false);
        }
      }}
    >
      <h2 className="text-lg font-semibold">New project</h2>
      <Field id="project-name" label="Project name" required value={name} onChange={setName} />
      <Field id="project-description" label="Short description" value={description} onChange={setDescription} />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={hidden} onChange={(e) => setHidden(e.target.checked)} />
        Private (only the team sees it until you make it public)
      </label>
      {error && (
        <p role="alert" className="rounded border border-red-300 bg-red-50 p-2 text-sm">
          {error}
        </p>
      )}
      <button
        type="submit"
        disabled={busy}
        className="self-start rounded bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-50"
      >
        {busy ? "Creating…" : "Create project"}
      </button>
    </form>
  );
}
