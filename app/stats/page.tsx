import type { Metadata } from "next";
import { Suspense } from "react";
import { db } from "@/lib/db";
import { StatsView } from "@/components/stats-view";
import { Skeleton } from "@/components/ui/query-state";

export const metadata: Metadata = { title: "Statistics" };

export const dynamic = "force-dynamic";

export default async function StatsPage() {
  // Public projects, busiest first, for the project picker.
  const projects = await db().project.findMany({
    where: { private: false },
    orderBy: [{ classificationsCount: "desc" }, { id: "asc" }],
    take: 500,
    select: { id: true, displayName: true },
  });
  return (
    <Suspense fallback={<Skeleton what="statistics" lines={8} />}>
      <StatsView projects={projects.map((p) => ({ id: String(p.id), display_name: p.displayName }))} />
    </Suspense>
  );
}
