DROP INDEX "invoices_planned_reference_idx";--> statement-breakpoint
ALTER TABLE "scholarship_payments" ADD COLUMN "intake" smallint;--> statement-breakpoint
ALTER TABLE "scholarship_payments" ADD COLUMN "scholarship_id" integer;--> statement-breakpoint
CREATE INDEX "invoices_planned_reference_date_idx" ON "invoices" USING btree ("document_reference","id","planned_date") WHERE "invoices"."number" is null and not "invoices"."is_creditnote";--> statement-breakpoint
CREATE INDEX "invoice_payments_unconfirmed_idx" ON "invoice_payments" USING btree ("number","id","payment_date") WHERE "invoice_payments"."payment_confirmation_timestamp" is null;--> statement-breakpoint
CREATE INDEX "scholarship_payments_planned_intake_idx" ON "scholarship_payments" USING btree ("intake","planned_date","id","scholarship_payment_type_id","scholarship_id") WHERE "scholarship_payments"."number" is null;--> statement-breakpoint
CREATE INDEX "scholarship_payments_numbered_intake_idx" ON "scholarship_payments" USING btree ("intake","number","id","scholarship_payment_type_id","scholarship_id") WHERE "scholarship_payments"."number" is not null;--> statement-breakpoint
CREATE INDEX "scholarship_payments_overview_idx" ON "scholarship_payments" USING btree ("intake","scholarship_id","scholarship_payment_type_id","number","exported_timestamp","amount");--> statement-breakpoint
-- Scholarship payments carry their contract's intake and scholarship (issue 11): the views' filters and the
-- Scholarship overview read them from the payment's own row and indexes. The backfill first, then the triggers
-- that keep them right.
UPDATE "scholarship_payments" sp SET "intake" = c."intake", "scholarship_id" = c."scholarship_id"
  FROM "contracts" c WHERE c."id" = sp."contract_id";--> statement-breakpoint
-- A payment takes its contract's keys when it is made and when its contract changes (or when anything writes
-- the keys themselves: they always come from the contract). FOR SHARE waits for a concurrent change of the
-- contract's intake or scholarship to commit, so that change's update of the payments cannot miss this one.
CREATE FUNCTION "scholarship_payments_contract_keys"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT c."intake", c."scholarship_id" INTO NEW."intake", NEW."scholarship_id"
    FROM "contracts" c WHERE c."id" = NEW."contract_id" FOR SHARE;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "scholarship_payments_contract_keys" BEFORE INSERT OR UPDATE OF "contract_id", "intake", "scholarship_id"
  ON "scholarship_payments" FOR EACH ROW EXECUTE FUNCTION "scholarship_payments_contract_keys"();--> statement-breakpoint
-- A contract whose intake or scholarship changes passes it on to its payments.
CREATE FUNCTION "contracts_scholarship_payment_keys"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "scholarship_payments" SET "intake" = NEW."intake", "scholarship_id" = NEW."scholarship_id" WHERE "contract_id" = NEW."id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "contracts_scholarship_payment_keys" AFTER UPDATE OF "intake", "scholarship_id" ON "contracts" FOR EACH ROW
  WHEN (OLD."intake" IS DISTINCT FROM NEW."intake" OR OLD."scholarship_id" IS DISTINCT FROM NEW."scholarship_id")
  EXECUTE FUNCTION "contracts_scholarship_payment_keys"();
