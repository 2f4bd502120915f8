"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { apiPutFresh } from "@/components/ui/api-client";
import { buttonClass } from "@/components/ui/controls";
import { Panel } from "@/components/ui/panel";
import { EmptyState } from "@/components/ui/query-state";
import { StatusMessage } from "@/components/ui/status-message";
import { useAction } from "@/components/ui/use-action";
import { formatDay } from "@/lib/text/format";

interface LaunchedProject {
  id: number;
  displayName: string;
  featured: boolean;
  private: boolean;
  launchDate: Date | null;
}

/** The launched projects, featured ones first, each featured or unfeatured with a button. */
export function LaunchedProjects({ projects }: { projects: LaunchedProject[] }) {
  return (
    <Panel id="launched-heading" title="Launched projects">
      {projects.length === 0 ? (
        <EmptyState>No project has launched yet.</EmptyState>
      ) : (
        <ul className="flex flex-col divide-y divide-gray-200">
          {projects.map((p) => (
            <LaunchedRow key={p.id} project={p} />
          ))}
        </ul>
      )}
    </Panel>
  );
}

function LaunchedRow({ project: p }: { project: LaunchedProject }) {
  const router = useRouter();
  const { busy, outcome, run } = useAction();
  const toggle = () =>
    run(async () => {
      await apiPutFresh(`/projects/${p.id}`, { projects: { featured: !p.featured } });
      router.refresh();
    });
  return (
    <li className="flex flex-col gap-1 py-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span>
          <Link href={`/projects/${p.id}`} className="font-medium text-brand-700 underline">
            {p.displayName}
          </Link>{" "}
          <span className="text-sm text-gray-600">
            {p.launchDate ? `launched ${formatDay(p.launchDate)}` : "launched"}
            {p.featured ? " · featured" : ""}
            {p.private ? " · private, so not listed" : ""}
          </span>
        </span>
        <button type="button" className={buttonClass} disabled={busy} onClick={() => void toggle()}>
          {p.featured ? "Unfeature" : "Feature"}
          <span className="sr-only"> {p.displayName}</span>
        </button>
      </div>
      <StatusMessage outcome={outcome} />
    </li>
  );
}
