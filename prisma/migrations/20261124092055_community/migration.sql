-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "activated_state" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "announcement" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "available_languages" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "categories" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "introduction" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "listed_at" TIMESTAMP(3),
ADD COLUMN     "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "title" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "urls" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "collections" ADD COLUMN     "owner_group_id" INTEGER,
ADD COLUMN     "slug" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "collection_roles" (
    "id" SERIAL NOT NULL,
    "collection_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "roles" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "collection_roles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "collection_preferences" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "collection_id" INTEGER NOT NULL,
    "preferences" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "collection_preferences_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "organization_roles" (
    "id" SERIAL NOT NULL,
    "organization_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "roles" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organization_roles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "organization_pages" (
    "id" SERIAL NOT NULL,
    "organization_id" INTEGER NOT NULL,
    "url_key" TEXT NOT NULL,
    "title" TEXT NOT NULL DEFAULT '',
    "language" TEXT NOT NULL DEFAULT 'en',
    "content" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organization_pages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "project_pages" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "url_key" TEXT NOT NULL,
    "title" TEXT NOT NULL DEFAULT '',
    "language" TEXT NOT NULL DEFAULT 'en',
    "content" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "project_pages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_groups" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "private" BOOLEAN NOT NULL DEFAULT true,
    "join_token" TEXT NOT NULL,
    "stats_visibility" TEXT NOT NULL DEFAULT 'private_agg_only',
    "classifications_count" INTEGER NOT NULL DEFAULT 0,
    "activated_state" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memberships" (
    "id" SERIAL NOT NULL,
    "user_group_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'invited',
    "roles" TEXT[] DEFAULT ARRAY['group_member']::TEXT[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memberships_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "field_guides" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "language" TEXT NOT NULL DEFAULT 'en',
    "items" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "field_guides_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tutorials" (
    "id" SERIAL NOT NULL,
    "project_id" INTEGER NOT NULL,
    "language" TEXT NOT NULL DEFAULT 'en',
    "kind" TEXT,
    "display_name" TEXT NOT NULL DEFAULT '',
    "steps" JSONB NOT NULL DEFAULT '[]',
    "configuration" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tutorials_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workflow_tutorials" (
    "workflow_id" INTEGER NOT NULL,
    "tutorial_id" INTEGER NOT NULL,

    CONSTRAINT "workflow_tutorials_pkey" PRIMARY KEY ("workflow_id","tutorial_id")
);

-- CreateTable
CREATE TABLE "media" (
    "id" SERIAL NOT NULL,
    "type" TEXT NOT NULL,
    "linked_type" TEXT NOT NULL,
    "linked_id" INTEGER NOT NULL,
    "content_type" TEXT NOT NULL,
    "src" TEXT NOT NULL,
    "external_link" BOOLEAN NOT NULL DEFAULT false,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "media_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "aggregations" (
    "id" SERIAL NOT NULL,
    "workflow_id" INTEGER NOT NULL,
    "project_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "uuid" TEXT,
    "task_id" TEXT,
    "status" TEXT NOT NULL DEFAULT 'created',
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "aggregations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "collection_roles_user_id_idx" ON "collection_roles"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "collection_roles_collection_id_user_id_key" ON "collection_roles"("collection_id", "user_id");

-- CreateIndex
CREATE INDEX "collection_preferences_collection_id_idx" ON "collection_preferences"("collection_id");

-- CreateIndex
CREATE UNIQUE INDEX "collection_preferences_user_id_collection_id_key" ON "collection_preferences"("user_id", "collection_id");

-- CreateIndex
CREATE INDEX "organization_roles_user_id_idx" ON "organization_roles"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "organization_roles_organization_id_user_id_key" ON "organization_roles"("organization_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "organization_pages_organization_id_url_key_language_key" ON "organization_pages"("organization_id", "url_key", "language");

-- CreateIndex
CREATE UNIQUE INDEX "project_pages_project_id_url_key_language_key" ON "project_pages"("project_id", "url_key", "language");

-- CreateIndex
CREATE INDEX "memberships_user_id_idx" ON "memberships"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "memberships_user_group_id_user_id_key" ON "memberships"("user_group_id", "user_id");

-- CreateIndex
CREATE INDEX "field_guides_project_id_language_idx" ON "field_guides"("project_id", "language");

-- CreateIndex
CREATE INDEX "tutorials_project_id_language_idx" ON "tutorials"("project_id", "language");

-- CreateIndex
CREATE INDEX "workflow_tutorials_tutorial_id_idx" ON "workflow_tutorials"("tutorial_id");

-- CreateIndex
CREATE INDEX "media_linked_type_linked_id_type_idx" ON "media"("linked_type", "linked_id", "type");

-- CreateIndex
CREATE INDEX "aggregations_project_id_idx" ON "aggregations"("project_id");

-- CreateIndex
CREATE UNIQUE INDEX "aggregations_workflow_id_user_id_key" ON "aggregations"("workflow_id", "user_id");

-- CreateIndex
CREATE INDEX "organizations_owner_id_idx" ON "organizations"("owner_id");

-- CreateIndex
CREATE INDEX "organizations_slug_idx" ON "organizations"("slug");

-- CreateIndex
CREATE INDEX "collections_owner_group_id_idx" ON "collections"("owner_group_id");

-- CreateIndex
CREATE INDEX "collections_project_ids_idx" ON "collections" USING GIN ("project_ids");

-- AddForeignKey
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collections" ADD CONSTRAINT "collections_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collections" ADD CONSTRAINT "collections_owner_group_id_fkey" FOREIGN KEY ("owner_group_id") REFERENCES "user_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collection_roles" ADD CONSTRAINT "collection_roles_collection_id_fkey" FOREIGN KEY ("collection_id") REFERENCES "collections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collection_roles" ADD CONSTRAINT "collection_roles_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collection_preferences" ADD CONSTRAINT "collection_preferences_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collection_preferences" ADD CONSTRAINT "collection_preferences_collection_id_fkey" FOREIGN KEY ("collection_id") REFERENCES "collections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "organization_roles" ADD CONSTRAINT "organization_roles_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "organization_roles" ADD CONSTRAINT "organization_roles_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "organization_pages" ADD CONSTRAINT "organization_pages_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_pages" ADD CONSTRAINT "project_pages_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_group_id_fkey" FOREIGN KEY ("user_group_id") REFERENCES "user_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "field_guides" ADD CONSTRAINT "field_guides_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tutorials" ADD CONSTRAINT "tutorials_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_tutorials" ADD CONSTRAINT "workflow_tutorials_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_tutorials" ADD CONSTRAINT "workflow_tutorials_tutorial_id_fkey" FOREIGN KEY ("tutorial_id") REFERENCES "tutorials"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "aggregations" ADD CONSTRAINT "aggregations_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "aggregations" ADD CONSTRAINT "aggregations_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "aggregations" ADD CONSTRAINT "aggregations_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Not expressible in the Prisma schema (the schema diff works from schema.snapshot.prisma, so these stay).
-- Fuzzy organization search (3 characters or more) by trigram similarity on the display name.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "organizations_display_name_trgm_idx" ON "organizations" USING gin (lower("display_name") gin_trgm_ops);
-- User group names are unique without regard to case.
CREATE UNIQUE INDEX "user_groups_lower_name_key" ON "user_groups" (lower("name"));
-- Owners of records made before roles existed hold the owner role.
INSERT INTO "organization_roles" ("organization_id", "user_id", "roles", "updated_at")
  SELECT "id", "owner_id", ARRAY['owner'], now() FROM "organizations" ON CONFLICT DO NOTHING;
INSERT INTO "collection_roles" ("collection_id", "user_id", "roles", "updated_at")
  SELECT "id", "owner_id", ARRAY['owner'], now() FROM "collections" WHERE "owner_id" IS NOT NULL ON CONFLICT DO NOTHING;
