-- CreateIndex
CREATE INDEX "collection_subjects_collection_id_created_at_subject_id_idx" ON "collection_subjects"("collection_id", "created_at" DESC, "subject_id" DESC);
