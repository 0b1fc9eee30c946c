-- A contract's or a student's History lists the events linked to it, newest first (decision 047).
DROP INDEX "log_events_student_idx";--> statement-breakpoint
DROP INDEX "log_events_contract_idx";--> statement-breakpoint
CREATE INDEX "log_events_student_idx" ON "log_events" USING btree ("student_id","le_time" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "log_events_contract_idx" ON "log_events" USING btree ("contract_id","le_time" DESC NULLS LAST);