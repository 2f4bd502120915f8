import { db } from "@/lib/db";

/**
 * Where the home page's "Start classifying" leads: a featured live public project with an active workflow
 * that has subjects, busiest first; else the most active such project. Null when there is none.
 */
export async function startClassifyingProject(): Promise<{ id: number; displayName: string } | null> {
  const where = {
    private: false,
    live: true,
    state: null,
    subjectsCount: { gt: 0 },
    workflows: { some: { active: true } },
  };
  const order = [{ activity: "desc" as const }, { classificationsCount: "desc" as const }, { id: "asc" as const }];
  const select = { id: true, displayName: true };
  return (
    (await db().project.findFirst({ where: { ...where, featured: true }, orderBy: order, select })) ??
    (await db().project.findFirst({ where, orderBy: order, select }))
  );
}
