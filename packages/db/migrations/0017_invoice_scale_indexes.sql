DROP INDEX "invoices_planned_reference_idx";--> statement-breakpoint
CREATE INDEX "invoices_creditnote_number_idx" ON "invoices" USING btree ("number","id") WHERE "invoices"."is_creditnote";--> statement-breakpoint
CREATE INDEX "invoices_planned_view_date_idx" ON "invoices" USING btree ("planned_date","id") WHERE "invoices"."number" is null and not "invoices"."is_creditnote";--> statement-breakpoint
CREATE INDEX "invoices_invoice_date_idx" ON "invoices" USING btree ("invoice_date","id");--> statement-breakpoint
CREATE INDEX "invoices_extended_deadline_idx" ON "invoices" USING btree ("extended_deadline_date","id");--> statement-breakpoint
CREATE INDEX "invoices_reminder_idx" ON "invoices" USING btree ("email_reminder_timestamp","id");--> statement-breakpoint
CREATE INDEX "invoices_amount_idx" ON "invoices" USING btree ("amount","id");--> statement-breakpoint
CREATE INDEX "invoices_year_idx" ON "invoices" USING btree ("year","id");--> statement-breakpoint
CREATE INDEX "invoices_semester_idx" ON "invoices" USING btree ("semester","id");--> statement-breakpoint
CREATE INDEX "invoices_planned_reference_idx" ON "invoices" USING btree ("document_reference","id") WHERE "invoices"."number" is null and not "invoices"."is_creditnote";--> statement-breakpoint
-- The invoice quick filter searches the number and the reference anywhere in them (issue 13 point 11): trigram
-- indexes, as the other overviews' searches (0004); not in the Drizzle schema, like those.
CREATE INDEX "invoices_number_trgm_idx" ON "invoices" USING gin ("number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "invoices_reference_trgm_idx" ON "invoices" USING gin ("document_reference" gin_trgm_ops);
