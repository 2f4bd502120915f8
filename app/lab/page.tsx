import type { Metadata } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { NewProjectForm } from "@/components/lab/new-project-form";
import { resolveActor } from "@/lib/auth/actor";
import { labProjects } from "@/lib/pages/lab";

export const metadata: Metadata = { title: "Lab" };

export const dynamic = "force-dynamic";

/** The lab: the projects the signed-in user builds (owner or collaborator), and a new one. */
export default async function LabPage() {
  const h = await headers();
  const actor = await resolveActor(new Request("http://local/", { headers: { cookie: h.get("cookie") ?? "" } }));
  if (!actor.user)
    return (
      <p className="rounded border border-gray-200 bg-white p-6">
        <Link href="/sign-in" className="text-brand-700 underline">
          Sign in
        </Link>{" "}
        to build a project.
      </p>
    );
  const projects = await labProjects({ ...actor, user: actor.user });
  return (
    <article className="flex flex-col gap-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-bold">Lab</h1>
        {actor.user.admin && (
          <Link href="/admin" className="text-sm text-brand-700 underline">
            Site admin console
          </Link>
        )}
      </div>
      <section aria-labelledby="mine" className="flex flex-col gap-2">
        <h2 id="mine" className="text-xl font-semibold">
          Your projects
        </h2>
        {projects.length === 0 ? (
          <p className="text-gray-600">You are not building any project yet.</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {projects.map((p) => (
              <li key={p.id}>
                <Link
                  href={`/lab/projects/${p.id}`}
                  className="flex justify-between rounded border border-gray-200 bg-white p-3 hover:border-brand-600"
                >
                  <span className="font-medium">{p.displayName}</span>
                  <span className="text-sm text-gray-600">
                    {p._count.workflows} workflow{p._count.workflows === 1 ? "" : "s"}
                    {p.private ? " · private" : ""}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
      <NewProjectForm />
    </article>
  );
}
