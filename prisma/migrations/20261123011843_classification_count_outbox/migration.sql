-- CreateTable
CREATE TABLE "classification_count_outbox" (
    "id" BIGSERIAL NOT NULL,
    "classification_id" INTEGER NOT NULL,
    "project_id" INTEGER NOT NULL,
    "workflow_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "classification_count_outbox_pkey" PRIMARY KEY ("id")
);
