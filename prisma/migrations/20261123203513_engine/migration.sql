-- CreateTable
CREATE TABLE "engine_workflows" (
    "id" INTEGER NOT NULL,
    "project_id" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'active',
    "rules_applied" TEXT NOT NULL DEFAULT 'all_matching_rules',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "engine_workflows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "engine_extractors" (
    "id" SERIAL NOT NULL,
    "workflow_id" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "config" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "engine_extractors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "engine_reducers" (
    "id" SERIAL NOT NULL,
    "workflow_id" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "topic" TEXT NOT NULL DEFAULT 'reduce_by_subject',
    "config" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "engine_reducers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "engine_rules" (
    "id" SERIAL NOT NULL,
    "workflow_id" INTEGER NOT NULL,
    "topic" TEXT NOT NULL DEFAULT 'subject',
    "position" INTEGER NOT NULL,
    "condition" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "engine_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "engine_rule_effects" (
    "id" SERIAL NOT NULL,
    "rule_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "config" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "engine_rule_effects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "engine_classifications" (
    "id" INTEGER NOT NULL,
    "workflow_id" INTEGER NOT NULL,
    "data" JSONB NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "engine_classifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "extracts" (
    "id" SERIAL NOT NULL,
    "workflow_id" INTEGER NOT NULL,
    "subject_id" INTEGER NOT NULL,
    "user_id" INTEGER,
    "classification_id" INTEGER NOT NULL,
    "classification_at" TIMESTAMP(3) NOT NULL,
    "extractor_key" TEXT NOT NULL,
    "data" JSONB,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "extracts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subject_reductions" (
    "id" SERIAL NOT NULL,
    "workflow_id" INTEGER NOT NULL,
    "subject_id" INTEGER NOT NULL,
    "reducer_key" TEXT NOT NULL,
    "subgroup" TEXT NOT NULL DEFAULT '_default',
    "data" JSONB,
    "store" JSONB,
    "lock_version" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subject_reductions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_reductions" (
    "id" SERIAL NOT NULL,
    "workflow_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "reducer_key" TEXT NOT NULL,
    "subgroup" TEXT NOT NULL DEFAULT '_default',
    "data" JSONB,
    "store" JSONB,
    "lock_version" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_reductions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reduction_extracts" (
    "reduction_kind" TEXT NOT NULL,
    "reduction_id" INTEGER NOT NULL,
    "extract_id" INTEGER NOT NULL,

    CONSTRAINT "reduction_extracts_pkey" PRIMARY KEY ("reduction_kind","reduction_id","extract_id")
);

-- CreateTable
CREATE TABLE "engine_actions" (
    "id" SERIAL NOT NULL,
    "workflow_id" INTEGER NOT NULL,
    "topic" TEXT NOT NULL,
    "subject_id" INTEGER,
    "user_id" INTEGER,
    "effect_type" TEXT NOT NULL,
    "config" JSONB NOT NULL DEFAULT '{}',
    "dedupe_key" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "performed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "engine_actions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "engine_subjects" (
    "id" INTEGER NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "fetched_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "engine_subjects_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "engine_extractors_workflow_id_key_key" ON "engine_extractors"("workflow_id", "key");

-- CreateIndex
CREATE UNIQUE INDEX "engine_reducers_workflow_id_key_key" ON "engine_reducers"("workflow_id", "key");

-- CreateIndex
CREATE UNIQUE INDEX "engine_rules_workflow_id_position_key" ON "engine_rules"("workflow_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "engine_rule_effects_rule_id_position_key" ON "engine_rule_effects"("rule_id", "position");

-- CreateIndex
CREATE INDEX "engine_classifications_workflow_id_idx" ON "engine_classifications"("workflow_id");

-- CreateIndex
CREATE INDEX "extracts_workflow_id_subject_id_idx" ON "extracts"("workflow_id", "subject_id");

-- CreateIndex
CREATE INDEX "extracts_workflow_id_user_id_idx" ON "extracts"("workflow_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "extracts_classification_id_extractor_key_key" ON "extracts"("classification_id", "extractor_key");

-- CreateIndex
CREATE UNIQUE INDEX "subject_reductions_workflow_id_subject_id_reducer_key_subgr_key" ON "subject_reductions"("workflow_id", "subject_id", "reducer_key", "subgroup");

-- CreateIndex
CREATE UNIQUE INDEX "user_reductions_workflow_id_user_id_reducer_key_subgroup_key" ON "user_reductions"("workflow_id", "user_id", "reducer_key", "subgroup");

-- CreateIndex
CREATE UNIQUE INDEX "engine_actions_dedupe_key_key" ON "engine_actions"("dedupe_key");

-- CreateIndex
CREATE INDEX "engine_actions_workflow_id_id_idx" ON "engine_actions"("workflow_id", "id");

-- AddForeignKey
ALTER TABLE "engine_extractors" ADD CONSTRAINT "engine_extractors_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "engine_workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "engine_reducers" ADD CONSTRAINT "engine_reducers_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "engine_workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "engine_rules" ADD CONSTRAINT "engine_rules_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "engine_workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "engine_rule_effects" ADD CONSTRAINT "engine_rule_effects_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "engine_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;
