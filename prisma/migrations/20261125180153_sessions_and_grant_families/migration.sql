-- Refresh-token families: each existing grant starts a family of its own.
ALTER TABLE "oauth_grants" ADD COLUMN     "family_id" TEXT;
UPDATE "oauth_grants" SET "family_id" = "id";
ALTER TABLE "oauth_grants" ALTER COLUMN "family_id" SET NOT NULL;

-- Browser sessions become rows (the cookies name them). Cookies issued before this migration name none
-- and stop working: their users sign in again.

-- CreateTable
CREATE TABLE "user_sessions" (
    "id" TEXT NOT NULL,
    "user_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "user_sessions_user_id_idx" ON "user_sessions"("user_id");

-- CreateIndex
CREATE INDEX "oauth_grants_family_id_idx" ON "oauth_grants"("family_id");

-- AddForeignKey
ALTER TABLE "user_sessions" ADD CONSTRAINT "user_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
