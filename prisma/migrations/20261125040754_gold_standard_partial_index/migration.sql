-- DropIndex
DROP INDEX "classifications_workflow_id_gold_standard_idx";

-- Gold standard classifications by workflow (and id, for paging): partial, so the classifications that
-- are not gold standard (nearly all) cost this index nothing when they are created.
CREATE INDEX "classifications_gold_standard" ON "classifications" ("workflow_id", "id") WHERE "gold_standard";
