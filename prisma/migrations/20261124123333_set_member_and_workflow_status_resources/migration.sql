-- AlterTable
ALTER TABLE "set_member_subjects" ADD COLUMN     "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- Statuses of subjects or workflows deleted before these keys existed go first.
DELETE FROM "subject_workflow_statuses" s
WHERE NOT EXISTS (SELECT 1 FROM "subjects" WHERE id = s.subject_id) OR NOT EXISTS (SELECT 1 FROM "workflows" WHERE id = s.workflow_id);

-- AddForeignKey
ALTER TABLE "subject_workflow_statuses" ADD CONSTRAINT "subject_workflow_statuses_subject_id_fkey" FOREIGN KEY ("subject_id") REFERENCES "subjects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subject_workflow_statuses" ADD CONSTRAINT "subject_workflow_statuses_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;
