-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "activity" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "beta_requested" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "classifiers_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "completeness" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "featured" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "launch_date" TIMESTAMP(3),
ADD COLUMN     "launch_requested" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "mobile_friendly" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "state" TEXT;

-- AlterTable
ALTER TABLE "workflows" ADD COLUMN     "activity" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "completeness" DOUBLE PRECISION NOT NULL DEFAULT 0;

ALTER TABLE "projects" ADD CONSTRAINT "projects_state_check" CHECK ("state" IS NULL OR "state" IN ('paused', 'finished'));

-- Figures of existing projects: volunteers so far, and a launch date for those already launched.
UPDATE "projects" p SET "classifiers_count" = c.n
  FROM (SELECT project_id, count(DISTINCT user_id)::int AS n FROM "user_project_daily_counts" GROUP BY 1) c WHERE c.project_id = p.id;
UPDATE "projects" SET "launch_date" = "updated_at" WHERE "launch_approved" AND "launch_date" IS NULL;
