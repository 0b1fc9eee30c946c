CREATE INDEX "students_country_idx" ON "students" USING btree ("cntry_id","id");--> statement-breakpoint
CREATE INDEX "students_citizenship1_idx" ON "students" USING btree ("citizenship1_cntry_id","id");--> statement-breakpoint
CREATE INDEX "contracts_student_name_idx" ON "contracts" USING btree (("first_name" || ' ' || "last_name"),"id");--> statement-breakpoint
CREATE INDEX "contracts_bankinfo_request_idx" ON "contracts" USING btree ("bankinfo_emailrequest_timestamp","id");--> statement-breakpoint
CREATE INDEX "contracts_bankinfo_updated_idx" ON "contracts" USING btree ("bankinfo_updated_timestamp","id");--> statement-breakpoint
CREATE INDEX "contracts_pf_status_email_idx" ON "contracts" USING btree ("pf_status_email_timestamp","id");--> statement-breakpoint
CREATE INDEX "invoices_numbered_invoice_date_idx" ON "invoices" USING btree ("invoice_date","id") WHERE "invoices"."number" is not null and not "invoices"."is_creditnote";--> statement-breakpoint
CREATE INDEX "invoices_planned_year_idx" ON "invoices" USING btree ("year","id") WHERE "invoices"."number" is null and not "invoices"."is_creditnote";--> statement-breakpoint
CREATE INDEX "invoices_planned_semester_idx" ON "invoices" USING btree ("semester","id") WHERE "invoices"."number" is null and not "invoices"."is_creditnote";--> statement-breakpoint
CREATE INDEX "invoices_planned_description_idx" ON "invoices" USING btree ("description","id") WHERE "invoices"."number" is null and not "invoices"."is_creditnote";--> statement-breakpoint
CREATE INDEX "invoices_planned_edit_timestamp_idx" ON "invoices" USING btree ("edit_timestamp","id") WHERE "invoices"."number" is null and not "invoices"."is_creditnote";--> statement-breakpoint
CREATE INDEX "invoices_creditnote_year_idx" ON "invoices" USING btree ("year","id") WHERE "invoices"."is_creditnote";--> statement-breakpoint
CREATE INDEX "invoices_creditnote_semester_idx" ON "invoices" USING btree ("semester","id") WHERE "invoices"."is_creditnote";--> statement-breakpoint
CREATE INDEX "invoices_creditnote_amount_idx" ON "invoices" USING btree ("amount","id") WHERE "invoices"."is_creditnote";--> statement-breakpoint
CREATE INDEX "invoices_creditnote_description_idx" ON "invoices" USING btree ("description","id") WHERE "invoices"."is_creditnote";--> statement-breakpoint
CREATE INDEX "invoices_creditnote_invoice_date_idx" ON "invoices" USING btree ("invoice_date","id") WHERE "invoices"."is_creditnote";--> statement-breakpoint
CREATE INDEX "invoices_creditnote_expiration_date_idx" ON "invoices" USING btree ("expiration_date","id") WHERE "invoices"."is_creditnote";--> statement-breakpoint
CREATE INDEX "invoices_creditnote_extended_deadline_date_idx" ON "invoices" USING btree ("extended_deadline_date","id") WHERE "invoices"."is_creditnote";--> statement-breakpoint
CREATE INDEX "invoices_creditnote_email_timestamp_idx" ON "invoices" USING btree ("email_timestamp","id") WHERE "invoices"."is_creditnote";--> statement-breakpoint
CREATE INDEX "invoices_creditnote_edit_timestamp_idx" ON "invoices" USING btree ("edit_timestamp","id") WHERE "invoices"."is_creditnote";--> statement-breakpoint
CREATE INDEX "invoice_payments_amount_idx" ON "invoice_payments" USING btree ("amount_paid","id");--> statement-breakpoint
CREATE INDEX "invoice_payments_commission_idx" ON "invoice_payments" USING btree ("commission","id");--> statement-breakpoint
CREATE INDEX "invoice_payments_net_amount_idx" ON "invoice_payments" USING btree ("net_amount","id");--> statement-breakpoint
CREATE INDEX "scholarship_payments_amount_idx" ON "scholarship_payments" USING btree ("amount","id");--> statement-breakpoint
CREATE INDEX "scholarship_payments_period_idx" ON "scholarship_payments" USING btree ("period","id");--> statement-breakpoint
CREATE INDEX "scholarship_payments_numbered_period_idx" ON "scholarship_payments" USING btree ("period","id") WHERE "scholarship_payments"."number" is not null;--> statement-breakpoint
CREATE INDEX "scholarship_payments_numbered_amount_idx" ON "scholarship_payments" USING btree ("amount","id") WHERE "scholarship_payments"."number" is not null;--> statement-breakpoint
CREATE INDEX "scholarship_payments_numbered_planned_date_idx" ON "scholarship_payments" USING btree ("planned_date","id") WHERE "scholarship_payments"."number" is not null;--> statement-breakpoint
CREATE INDEX "scholarship_payments_numbered_payment_date_idx" ON "scholarship_payments" USING btree ("payment_date","id") WHERE "scholarship_payments"."number" is not null;--> statement-breakpoint
CREATE INDEX "scholarship_payments_numbered_payment_allowed_idx" ON "scholarship_payments" USING btree ("payment_allowed","id") WHERE "scholarship_payments"."number" is not null;--> statement-breakpoint
CREATE INDEX "scholarship_payments_numbered_edit_timestamp_idx" ON "scholarship_payments" USING btree ("edit_timestamp","id") WHERE "scholarship_payments"."number" is not null;