-- CreateIndex
CREATE INDEX "subject_reductions_workflow_id_updated_at_id_idx" ON "subject_reductions"("workflow_id" DESC, "updated_at" DESC, "id" DESC);
