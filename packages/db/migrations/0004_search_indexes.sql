-- Trigram indexes so the quick filters and text filters of the overviews are index searches, not scans.
CREATE INDEX "contracts_application_number_trgm_idx" ON "contracts" USING gin ("application_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "students_address_trgm_idx" ON "students" USING gin (f_unaccent(lower("address" || ' ' || "zip" || ' ' || "city")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "students_email_trgm_idx" ON "students" USING gin (lower("email_address") gin_trgm_ops);
