-- AlterTable
ALTER TABLE "engine_workflows" ADD COLUMN     "public_extracts" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "public_reductions" BOOLEAN NOT NULL DEFAULT false;
