-- DropIndex
DROP INDEX "classifications_user_id_workflow_id_idx";

-- CreateIndex
CREATE INDEX "classifications_user_id_id_idx" ON "classifications"("user_id", "id");
