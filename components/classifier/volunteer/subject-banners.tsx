/** Why this subject is shown although it may not need the volunteer: from the queue's selection state. */
export function SubjectBanners({
  subject,
}: {
  subject: { retired: boolean; already_seen: boolean; finished_workflow: boolean; user_has_finished_workflow: boolean };
}) {
  const notes: string[] = [];
  if (subject.finished_workflow)
    notes.push(
      "This workflow is finished: every subject is retired. You can keep classifying, but your classifications will not change the results.",
    );
  else if (subject.user_has_finished_workflow)
    notes.push("You have classified every subject in this workflow. These are subjects you have seen before.");
  if (subject.retired && !subject.finished_workflow) notes.push("This subject is already retired: your classification is still welcome.");
  if (subject.already_seen) notes.push("You have seen this subject before.");
  if (!notes.length) return null;
  return (
    <div className="mb-2 flex flex-col gap-1" data-testid="subject-banners">
      {notes.map((n) => (
        <p key={n} role="note" className="rounded bg-gray-200 px-3 py-1 text-sm">
          {n}
        </p>
      ))}
    </div>
  );
}
