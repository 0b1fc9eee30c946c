-- Issue 10: refused requests (401 with a token, 403) on authenticated routes are written to the event log.
INSERT INTO "logging_types" ("id", "name") VALUES (17, 'Access refused');
