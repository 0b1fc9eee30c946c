ALTER TABLE "students" ADD COLUMN "address_key" text GENERATED ALWAYS AS (f_unaccent(lower(address || ' ' || zip || ' ' || city))) STORED;--> statement-breakpoint
-- The address filter's trigram index on the stored key instead of the expression (same name), so the index's
-- recheck reads the key instead of calling unaccent on every candidate row (decision 032).
DROP INDEX IF EXISTS "students_address_trgm_idx";--> statement-breakpoint
CREATE INDEX "students_address_trgm_idx" ON "students" USING gin ("address_key" gin_trgm_ops);
