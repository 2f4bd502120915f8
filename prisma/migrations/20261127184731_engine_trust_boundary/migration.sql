-- The trust boundary of the engine: the inputs of one workflow never touch another workflow.

-- Forwarded classifications are keyed by (workflow, id): a post for one workflow never takes over one of another workflow.
DROP INDEX "engine_classifications_workflow_id_idx";
ALTER TABLE "engine_classifications" DROP CONSTRAINT "engine_classifications_pkey",
ADD CONSTRAINT "engine_classifications_pkey" PRIMARY KEY ("workflow_id", "id");

-- Extracts are unique per workflow: an upsert on one workflow never overwrites an extract of another workflow.
-- The old key, (classification_id, extractor_key), is stricter, so every existing row satisfies the new one.
CREATE UNIQUE INDEX "extracts_workflow_id_classification_id_extractor_key_key" ON "extracts"("workflow_id", "classification_id", "extractor_key");
DROP INDEX "extracts_classification_id_extractor_key_key";

-- The inbox names the workflow of each classification. Waiting rows take it from the classification in component A,
-- else from the forwarded one (whose id was unique until now): a row that names neither would have been
-- skipped by the engine, and goes.
ALTER TABLE "engine_inbox" ADD COLUMN "workflow_id" INTEGER;
UPDATE "engine_inbox" i SET "workflow_id" = coalesce(
  (SELECT c."workflow_id" FROM "classifications" c WHERE c."id" = i."classification_id"),
  (SELECT ec."workflow_id" FROM "engine_classifications" ec WHERE ec."id" = i."classification_id" LIMIT 1));
DELETE FROM "engine_inbox" WHERE "workflow_id" IS NULL;
ALTER TABLE "engine_inbox" ALTER COLUMN "workflow_id" SET NOT NULL;

-- Cached subject metadata gets a space: 0 for the subjects of component A, the id of a workflow for the subjects an
-- external forwarder describes to a workflow without a project.
ALTER TABLE "engine_subjects" DROP CONSTRAINT "engine_subjects_pkey",
ADD COLUMN "space" INTEGER NOT NULL DEFAULT 0,
ADD CONSTRAINT "engine_subjects_pkey" PRIMARY KEY ("space", "id");
-- What the extracts of projectless workflows name moves to the spaces of those workflows ...
INSERT INTO "engine_subjects" ("space", "id", "metadata", "fetched_at")
SELECT DISTINCT ON (e."workflow_id", e."subject_id") e."workflow_id", es."id", es."metadata", es."fetched_at"
FROM "extracts" e
JOIN "engine_workflows" w ON w."id" = e."workflow_id" AND w."project_id" IS NULL
JOIN "engine_subjects" es ON es."space" = 0 AND es."id" = e."subject_id"
ON CONFLICT DO NOTHING;
-- ... and space 0 keeps only copies of subjects of component A: a row for an id A did not have (a
-- description by a forwarder), or had not yet when the row was written, is dropped and read afresh from A.
DELETE FROM "engine_subjects" es WHERE es."space" = 0 AND NOT EXISTS (
  SELECT 1 FROM "subjects" s WHERE s."id" = es."id" AND s."created_at" <= es."fetched_at");
