-- Logins and emails compare case-insensitively and exactly (citext equality), on their unique indexes:
-- a lookup by a user-given string is never a pattern. citext is a trusted extension (PostgreSQL 13+).
-- The unique indexes now also hold regardless of case (registration already refused such duplicates).
CREATE EXTENSION IF NOT EXISTS citext;

-- AlterTable
ALTER TABLE "users" ALTER COLUMN "login" SET DATA TYPE CITEXT,
ALTER COLUMN "email" SET DATA TYPE CITEXT;
