-- AlterTable
ALTER TABLE "classification_count_outbox" ADD COLUMN     "seconds" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "user_id" INTEGER;

-- CreateTable
CREATE TABLE "classification_daily_counts" (
    "scope" TEXT NOT NULL,
    "scope_id" INTEGER NOT NULL,
    "day" DATE NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "classification_daily_counts_pkey" PRIMARY KEY ("scope","scope_id","day")
);

-- CreateTable
CREATE TABLE "user_project_daily_counts" (
    "user_id" INTEGER NOT NULL,
    "project_id" INTEGER NOT NULL,
    "day" DATE NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "seconds" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "user_project_daily_counts_pkey" PRIMARY KEY ("user_id","project_id","day")
);
