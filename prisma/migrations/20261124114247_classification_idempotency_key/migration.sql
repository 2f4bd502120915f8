-- AlterTable
ALTER TABLE "classifications" ADD COLUMN     "idempotency_key" TEXT;

-- One classification per client key and owner (a user, or 0 for anonymous volunteers): a retried POST
-- finds the stored one instead of creating a second.
CREATE UNIQUE INDEX "classifications_idempotency_key" ON "classifications" (coalesce("user_id", 0), "idempotency_key") WHERE "idempotency_key" IS NOT NULL;
