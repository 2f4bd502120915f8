-- CreateTable
CREATE TABLE "workflow_versions" (
    "id" SERIAL NOT NULL,
    "workflow_id" INTEGER NOT NULL,
    "major_number" INTEGER NOT NULL,
    "minor_number" INTEGER NOT NULL,
    "tasks" JSONB NOT NULL DEFAULT '{}',
    "first_task" TEXT NOT NULL DEFAULT '',
    "strings" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workflow_versions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "workflow_versions_workflow_id_major_number_minor_number_key" ON "workflow_versions"("workflow_id", "major_number", "minor_number");

-- AddForeignKey
ALTER TABLE "workflow_versions" ADD CONSTRAINT "workflow_versions_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The current version of every existing workflow.
INSERT INTO "workflow_versions" (workflow_id, major_number, minor_number, tasks, first_task, strings)
SELECT id, major_version, minor_version, tasks, first_task, strings FROM "workflows";
