ALTER TABLE "batch_run_rows" ADD COLUMN "retryable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Rows that failed before the column: those the database broke off until the worker gave up, and those failed for an
-- error nobody expected, may pass, as the worker now records it; the others were refused for themselves.
UPDATE "batch_run_rows" SET "retryable" = true
  WHERE "status" = 'failed' AND ("attempts" >= 3 OR "message" LIKE '%: an unexpected error (see the server log)');
