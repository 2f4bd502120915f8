-- AlterTable
ALTER TABLE "admin_actions" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'change',
ADD COLUMN     "reason" TEXT;
