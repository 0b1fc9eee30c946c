-- Decision 055: a document or mail that could not be made because its template does not render is written to the
-- event log, so that an Administrator learns of it (the staff member saw only a red alert).
INSERT INTO "logging_types" ("id", "name") VALUES (18, 'Template failed');
