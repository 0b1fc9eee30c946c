DROP INDEX "students_email_idx";--> statement-breakpoint
DROP INDEX "contracts_status_idx";--> statement-breakpoint
DROP INDEX "contracts_start_date_idx";--> statement-breakpoint
CREATE INDEX "students_address_idx" ON "students" USING btree ("address","id");--> statement-breakpoint
CREATE INDEX "students_zip_idx" ON "students" USING btree ("zip","id");--> statement-breakpoint
CREATE INDEX "students_city_idx" ON "students" USING btree ("city","id");--> statement-breakpoint
CREATE INDEX "students_birth_date_idx" ON "students" USING btree ("birth_date","id");--> statement-breakpoint
CREATE INDEX "students_edit_idx" ON "students" USING btree ("edit_timestamp","id");--> statement-breakpoint
CREATE INDEX "contracts_end_date_idx" ON "contracts" USING btree ("end_date","id");--> statement-breakpoint
CREATE INDEX "contracts_sent_idx" ON "contracts" USING btree ("contract_sent_date","id");--> statement-breakpoint
CREATE INDEX "contracts_edit_idx" ON "contracts" USING btree ("edit_timestamp","id");--> statement-breakpoint
CREATE INDEX "students_email_idx" ON "students" USING btree ("email_address","id");--> statement-breakpoint
CREATE INDEX "contracts_status_idx" ON "contracts" USING btree ("contract_status_id","id");--> statement-breakpoint
CREATE INDEX "contracts_start_date_idx" ON "contracts" USING btree ("start_date","id");