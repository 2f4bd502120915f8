-- CreateTable
CREATE TABLE "translations" (
    "id" SERIAL NOT NULL,
    "translated_type" TEXT NOT NULL,
    "translated_id" INTEGER NOT NULL,
    "language" TEXT NOT NULL,
    "project_id" INTEGER NOT NULL,
    "strings" JSONB NOT NULL DEFAULT '{}',
    "string_versions" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "translations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "translations_project_id_idx" ON "translations"("project_id");

-- CreateIndex
CREATE UNIQUE INDEX "translations_translated_type_translated_id_language_key" ON "translations"("translated_type", "translated_id", "language");

-- AddForeignKey
ALTER TABLE "translations" ADD CONSTRAINT "translations_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
