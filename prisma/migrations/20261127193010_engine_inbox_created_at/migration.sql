-- AlterTable
ALTER TABLE "engine_inbox" ADD COLUMN     "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "request_id" TEXT;
