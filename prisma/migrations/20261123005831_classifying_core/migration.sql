-- CreateTable
CREATE TABLE "workflows" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "display_name" TEXT NOT NULL,
    "tasks" JSONB NOT NULL DEFAULT '{}',
    "first_task" TEXT NOT NULL DEFAULT '',
    "primary_language" TEXT NOT NULL DEFAULT 'en',
    "configuration" JSONB NOT NULL DEFAULT '{}',
    "retirement" JSONB NOT NULL DEFAULT '{}',
    "aggregation" JSONB NOT NULL DEFAULT '{}',
    "strings" JSONB NOT NULL DEFAULT '{}',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "grouped" BOOLEAN NOT NULL DEFAULT false,
    "prioritized" BOOLEAN NOT NULL DEFAULT false,
    "pairwise" BOOLEAN NOT NULL DEFAULT false,
    "mobile_friendly" BOOLEAN NOT NULL DEFAULT false,
    "major_version" INTEGER NOT NULL DEFAULT 1,
    "minor_version" INTEGER NOT NULL DEFAULT 1,
    "classifications_count" INTEGER NOT NULL DEFAULT 0,
    "retired_set_member_subjects_count" INTEGER NOT NULL DEFAULT 0,
    "finished_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workflows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subject_sets" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "display_name" TEXT NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "set_member_subjects_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subject_sets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workflow_subject_sets" (
    "workflow_id" INTEGER NOT NULL,
    "subject_set_id" INTEGER NOT NULL,

    CONSTRAINT "workflow_subject_sets_pkey" PRIMARY KEY ("workflow_id","subject_set_id")
);

-- CreateTable
CREATE TABLE "subjects" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "upload_user_id" INTEGER,
    "external_id" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "locations" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subjects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "set_member_subjects" (
    "id" SERIAL NOT NULL,
    "subject_set_id" INTEGER NOT NULL,
    "subject_id" INTEGER NOT NULL,
    "random" DOUBLE PRECISION NOT NULL DEFAULT random(),
    "priority" DOUBLE PRECISION,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "set_member_subjects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subject_workflow_statuses" (
    "id" SERIAL NOT NULL,
    "subject_id" INTEGER NOT NULL,
    "workflow_id" INTEGER NOT NULL,
    "classifications_count" INTEGER NOT NULL DEFAULT 0,
    "retired_at" TIMESTAMP(3),
    "retirement_reason" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subject_workflow_statuses_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_seen_subjects" (
    "user_id" INTEGER NOT NULL,
    "workflow_id" INTEGER NOT NULL,
    "subject_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_seen_subjects_pkey" PRIMARY KEY ("user_id","workflow_id","subject_id")
);

-- CreateTable
CREATE TABLE "classifications" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "workflow_id" INTEGER NOT NULL,
    "user_id" INTEGER,
    "user_group_id" INTEGER,
    "subject_ids" INTEGER[],
    "annotations" JSONB NOT NULL DEFAULT '[]',
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "completed" BOOLEAN NOT NULL DEFAULT true,
    "gold_standard" BOOLEAN,
    "workflow_version" TEXT NOT NULL,
    "user_ip" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "classifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "project_preferences" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "project_id" INTEGER NOT NULL,
    "email_communication" BOOLEAN NOT NULL DEFAULT false,
    "preferences" JSONB NOT NULL DEFAULT '{}',
    "settings" JSONB NOT NULL DEFAULT '{}',
    "activity_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "project_preferences_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "background_jobs" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "project_id" INTEGER NOT NULL,
    "user_id" INTEGER,
    "params" JSONB NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "progress" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER,
    "error" TEXT,
    "result_path" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "background_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "workflows_project_id_idx" ON "workflows"("project_id");

-- CreateIndex
CREATE INDEX "subject_sets_project_id_idx" ON "subject_sets"("project_id");

-- CreateIndex
CREATE INDEX "workflow_subject_sets_subject_set_id_idx" ON "workflow_subject_sets"("subject_set_id");

-- CreateIndex
CREATE INDEX "subjects_project_id_idx" ON "subjects"("project_id");

-- CreateIndex
CREATE INDEX "set_member_subjects_subject_set_id_random_idx" ON "set_member_subjects"("subject_set_id", "random");

-- CreateIndex
CREATE INDEX "set_member_subjects_subject_set_id_priority_subject_id_idx" ON "set_member_subjects"("subject_set_id", "priority", "subject_id");

-- CreateIndex
CREATE INDEX "set_member_subjects_subject_id_idx" ON "set_member_subjects"("subject_id");

-- CreateIndex
CREATE UNIQUE INDEX "set_member_subjects_subject_set_id_subject_id_key" ON "set_member_subjects"("subject_set_id", "subject_id");

-- CreateIndex
CREATE INDEX "subject_workflow_statuses_workflow_id_retired_at_idx" ON "subject_workflow_statuses"("workflow_id", "retired_at");

-- CreateIndex
CREATE UNIQUE INDEX "subject_workflow_statuses_subject_id_workflow_id_key" ON "subject_workflow_statuses"("subject_id", "workflow_id");

-- CreateIndex
CREATE INDEX "classifications_user_id_workflow_id_idx" ON "classifications"("user_id", "workflow_id");

-- CreateIndex
CREATE INDEX "classifications_project_id_id_idx" ON "classifications"("project_id", "id");

-- CreateIndex
CREATE INDEX "classifications_workflow_id_id_idx" ON "classifications"("workflow_id", "id");

-- CreateIndex
CREATE INDEX "classifications_user_id_completed_updated_at_idx" ON "classifications"("user_id", "completed", "updated_at");

-- CreateIndex
CREATE INDEX "classifications_workflow_id_gold_standard_idx" ON "classifications"("workflow_id", "gold_standard");

-- CreateIndex
CREATE INDEX "project_preferences_project_id_idx" ON "project_preferences"("project_id");

-- CreateIndex
CREATE UNIQUE INDEX "project_preferences_user_id_project_id_key" ON "project_preferences"("user_id", "project_id");

-- CreateIndex
CREATE INDEX "background_jobs_project_id_kind_idx" ON "background_jobs"("project_id", "kind");

-- AddForeignKey
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subject_sets" ADD CONSTRAINT "subject_sets_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_subject_sets" ADD CONSTRAINT "workflow_subject_sets_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_subject_sets" ADD CONSTRAINT "workflow_subject_sets_subject_set_id_fkey" FOREIGN KEY ("subject_set_id") REFERENCES "subject_sets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subjects" ADD CONSTRAINT "subjects_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "set_member_subjects" ADD CONSTRAINT "set_member_subjects_subject_set_id_fkey" FOREIGN KEY ("subject_set_id") REFERENCES "subject_sets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "set_member_subjects" ADD CONSTRAINT "set_member_subjects_subject_id_fkey" FOREIGN KEY ("subject_id") REFERENCES "subjects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_preferences" ADD CONSTRAINT "project_preferences_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_preferences" ADD CONSTRAINT "project_preferences_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
