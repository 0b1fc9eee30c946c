ALTER TABLE "students" ADD COLUMN "name_key" text GENERATED ALWAYS AS (f_unaccent(lower(first_name || ' ' || last_name))) STORED;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "last_name_key" text GENERATED ALWAYS AS (f_unaccent(lower(last_name))) STORED;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "first_name_key" text GENERATED ALWAYS AS (f_unaccent(lower(first_name))) STORED;--> statement-breakpoint
-- The name search's trigram index on the stored key instead of the expression (same name: plans and tests know it).
DROP INDEX IF EXISTS "students_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "students_name_trgm_idx" ON "students" USING gin ("name_key" gin_trgm_ops);
