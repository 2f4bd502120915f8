-- Machine-made extracts (imported from a CSV) have no classification: they take negative ids from here,
-- so (classification_id, extractor_key) stays their key and the reducers treat them as any extract.
CREATE SEQUENCE IF NOT EXISTS "engine_machine_extract_ids" AS integer START WITH 1 MINVALUE 1;
