-- AlterTable
ALTER TABLE "users" ADD COLUMN     "disabled_at" TIMESTAMP(3),
ADD COLUMN     "reset_password_sent_at" TIMESTAMP(3),
ADD COLUMN     "reset_password_token_hash" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "users_reset_password_token_hash_key" ON "users"("reset_password_token_hash");
