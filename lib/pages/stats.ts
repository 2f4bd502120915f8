import { db } from "@/lib/db";

/** The statistics page's project picker: public projects, busiest first. */
export async function statsProjects() {
  return db().project.findMany({
    where: { private: false },
    orderBy: [{ classificationsCount: "desc" }, { id: "asc" }],
    take: 500,
    select: { id: true, displayName: true },
  });
}
