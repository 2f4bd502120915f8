import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { labActor } from "@/app/lab/lab-access";
import { ActionList } from "@/components/admin/action-list";
import { Figures } from "@/components/admin/figures";
import { LaunchedProjects } from "@/components/admin/launched-projects";
import { ReviewQueue } from "@/components/admin/review-queue";
import { UserLookup } from "@/components/admin/user-lookup";
import { loadAdminConsole } from "@/lib/pages/admin";

export const metadata: Metadata = { title: "Admin" };

export const dynamic = "force-dynamic";

/** `?page=` of the actions list: a positive whole number, else the first page. */
function pageOf(raw: string | string[] | undefined): number {
  const n = typeof raw === "string" && /^[1-9][0-9]{0,5}$/.test(raw) ? Number(raw) : 1;
  return n;
}

/**
 * The site admin's console: projects waiting for review, featuring, users, the platform's figures and the
 * record of admin actions. Admins only (a 404 for anyone else; signed-out visitors are sent to sign in).
 */
export default async function AdminPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const view = await loadAdminConsole(await labActor(), pageOf((await searchParams).page));
  if (!view) notFound();
  return (
    <article className="flex flex-col gap-6">
      <header>
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Site admin</p>
        <h1 className="text-2xl font-bold">Admin console</h1>
      </header>
      <Figures figures={view.figures} />
      <ReviewQueue items={view.queue} />
      <UserLookup adminId={view.adminId} />
      <LaunchedProjects projects={view.launched} />
      <ActionList actions={view.actions} />
    </article>
  );
}
