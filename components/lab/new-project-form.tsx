"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiPost } from "@/components/ui/api-client";
import { Field } from "@/components/ui/field";
import type { ProjectRecord, Records } from "@/components/ui/wire-types";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { primaryButtonClass } from "@/components/ui/controls";

/** Creates a project through the API (the session is the owner) and opens it in the lab. */
export function NewProjectForm() {
  const router = useRouter();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [hidden, setHidden] = useState(true);
  const { busy: saving, outcome, run } = useAction();
  // Created: busy still, until the lab's page replaces this one (a second click would make a second project).
  const [leaving, setLeaving] = useState(false);
  const busy = saving || leaving;
  return (
    <form
      className="flex max-w-xl flex-col gap-3 rounded-lg border border-gray-200 bg-white p-4"
      onSubmit={(e) => {
        e.preventDefault();
        void run(async () => {
          const body = await apiPost<Records<"projects", ProjectRecord>>("/projects", {
            projects: { display_name: name, description, private: hidden, primary_language: "en" },
          });
          setLeaving(true);
          router.push(`/lab/projects/${body.projects[0].id}`);
        });
      }}
    >
      <h2 className="text-lg font-semibold">New project</h2>
      <Field id="project-name" label="Project name" required value={name} onChange={setName} />
      <Field id="project-description" label="Short description" value={description} onChange={setDescription} />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={hidden} onChange={(e) => setHidden(e.target.checked)} />
        Private (only the team sees it until you make it public)
      </label>
      <StatusMessage outcome={outcome} />
      <button type="submit" disabled={busy} className={`self-start ${primaryButtonClass}`}>
        {busy ? "Creating…" : "Create project"}
      </button>
    </form>
  );
}
