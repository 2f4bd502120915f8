import type { Metadata } from "next";
import { Suspense } from "react";
import { statsProjects } from "@/lib/pages/stats";
import { StatsView } from "@/components/stats-view";
import { Skeleton } from "@/components/ui/query-state";

export const metadata: Metadata = { title: "Statistics" };

export const dynamic = "force-dynamic";

export default async function StatsPage() {
  const projects = await statsProjects();
  return (
    <Suspense fallback={<Skeleton what="statistics" lines={8} />}>
      <StatsView projects={projects.map((p) => ({ id: String(p.id), display_name: p.displayName }))} />
    </Suspense>
  );
}
