-- DropIndex
DROP INDEX "subjects_project_id_idx";

-- CreateIndex
CREATE INDEX "subjects_project_id_id_idx" ON "subjects"("project_id", "id");

-- CreateIndex
CREATE INDEX "set_member_subjects_subject_set_id_id_idx" ON "set_member_subjects"("subject_set_id", "id");

-- CreateIndex
CREATE INDEX "extracts_workflow_id_id_idx" ON "extracts"("workflow_id", "id");

-- CreateIndex
CREATE INDEX "subject_reductions_workflow_id_id_idx" ON "subject_reductions"("workflow_id", "id");

-- Incomplete classifications by project and by workflow (written by hand: partial). A list of the
-- classifications of a project or a workflow counts its counter, its rows still in the count outbox and
-- these (lib/counts/list-counters.ts). Completed classifications, nearly all, cost these indexes nothing.
CREATE INDEX "classifications_incomplete_project" ON "classifications" ("project_id") WHERE NOT "completed";
CREATE INDEX "classifications_incomplete_workflow" ON "classifications" ("workflow_id") WHERE NOT "completed";
