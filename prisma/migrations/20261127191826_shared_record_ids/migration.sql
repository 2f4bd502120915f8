-- Records the established front end keeps together (its classifier relates records of different types
-- that share an id) take their ids from one sequence, so a new project, workflow, tutorial, field guide,
-- subject set or subject never has the id of another kind of record. Existing ids stay as they are: the
-- sequence starts past the largest of them.
CREATE SEQUENCE "record_ids" AS integer;
SELECT setval('record_ids', coalesce((SELECT max(m) FROM (
SELECT max("id") AS m FROM "projects"
  UNION ALL SELECT max("id") AS m FROM "organizations"
  UNION ALL SELECT max("id") AS m FROM "workflows"
  UNION ALL SELECT max("id") AS m FROM "subject_sets"
  UNION ALL SELECT max("id") AS m FROM "subjects"
  UNION ALL SELECT max("id") AS m FROM "project_preferences"
  UNION ALL SELECT max("id") AS m FROM "collections"
  UNION ALL SELECT max("id") AS m FROM "project_pages"
  UNION ALL SELECT max("id") AS m FROM "field_guides"
  UNION ALL SELECT max("id") AS m FROM "tutorials"
  UNION ALL SELECT max("id") AS m FROM "media"
) AS x), 0) + 1, false);

ALTER TABLE "projects" ALTER COLUMN "id" SET DEFAULT nextval('record_ids'::regclass);
DROP SEQUENCE IF EXISTS "projects_id_seq";
ALTER TABLE "organizations" ALTER COLUMN "id" SET DEFAULT nextval('record_ids'::regclass);
DROP SEQUENCE IF EXISTS "organizations_id_seq";
ALTER TABLE "workflows" ALTER COLUMN "id" SET DEFAULT nextval('record_ids'::regclass);
DROP SEQUENCE IF EXISTS "workflows_id_seq";
ALTER TABLE "subject_sets" ALTER COLUMN "id" SET DEFAULT nextval('record_ids'::regclass);
DROP SEQUENCE IF EXISTS "subject_sets_id_seq";
ALTER TABLE "subjects" ALTER COLUMN "id" SET DEFAULT nextval('record_ids'::regclass);
DROP SEQUENCE IF EXISTS "subjects_id_seq";
ALTER TABLE "project_preferences" ALTER COLUMN "id" SET DEFAULT nextval('record_ids'::regclass);
DROP SEQUENCE IF EXISTS "project_preferences_id_seq";
ALTER TABLE "collections" ALTER COLUMN "id" SET DEFAULT nextval('record_ids'::regclass);
DROP SEQUENCE IF EXISTS "collections_id_seq";
ALTER TABLE "project_pages" ALTER COLUMN "id" SET DEFAULT nextval('record_ids'::regclass);
DROP SEQUENCE IF EXISTS "project_pages_id_seq";
ALTER TABLE "field_guides" ALTER COLUMN "id" SET DEFAULT nextval('record_ids'::regclass);
DROP SEQUENCE IF EXISTS "field_guides_id_seq";
ALTER TABLE "tutorials" ALTER COLUMN "id" SET DEFAULT nextval('record_ids'::regclass);
DROP SEQUENCE IF EXISTS "tutorials_id_seq";
ALTER TABLE "media" ALTER COLUMN "id" SET DEFAULT nextval('record_ids'::regclass);
DROP SEQUENCE IF EXISTS "media_id_seq";
