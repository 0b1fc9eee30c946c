-- Sorts by a lookup's name (decision 030): the contracts of each program and scholarship, and the scholarship
-- payments of each type in each view, by id, read a page at a time for each name. And a planned scholarship
-- payment has no payment date (0018 made a numbered one have one): the planned view filtered by payment date is
-- empty without reading a row.
DROP INDEX "contracts_program_idx";--> statement-breakpoint
DROP INDEX "contracts_scholarship_idx";--> statement-breakpoint
CREATE INDEX "scholarship_payments_numbered_type_idx" ON "scholarship_payments" USING btree ("scholarship_payment_type_id","id") WHERE "scholarship_payments"."number" is not null;--> statement-breakpoint
CREATE INDEX "scholarship_payments_planned_type_idx" ON "scholarship_payments" USING btree ("scholarship_payment_type_id","id") WHERE "scholarship_payments"."number" is null;--> statement-breakpoint
CREATE INDEX "contracts_program_idx" ON "contracts" USING btree ("program_id","id");--> statement-breakpoint
CREATE INDEX "contracts_scholarship_idx" ON "contracts" USING btree ("scholarship_id","id");--> statement-breakpoint
ALTER TABLE "scholarship_payments" ADD CONSTRAINT "scholarship_payments_planned_check" CHECK ("scholarship_payments"."number" is not null or "scholarship_payments"."payment_date" is null);