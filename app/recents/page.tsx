import type { Metadata } from "next";
import { loadRecents } from "@/lib/pages/recents";
import { formatDay } from "@/lib/text/format";
import { SubjectGrid } from "@/components/volunteer/subject-grid";
import { signedInVisitor } from "../visitor";

export const metadata: Metadata = { title: "Recents" };

export const dynamic = "force-dynamic";

/** The subjects the volunteer classified lately, newest first, each with its project and a way to classify more. */
export default async function RecentsPage() {
  const recents = await loadRecents(await signedInVisitor("/recents"));
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">Recently classified</h1>
      <SubjectGrid
        empty={<>You have not classified any subject yet. Pick a project on the home page to start.</>}
        label="Subjects you classified recently"
        subjects={recents.map((r) => ({
          id: r.subjectId,
          projectId: r.projectId,
          projectName: r.projectName,
          mime: r.mime,
          url: r.url,
          note: `Classified ${formatDay(r.classifiedAt)}`,
        }))}
      />
    </article>
  );
}
