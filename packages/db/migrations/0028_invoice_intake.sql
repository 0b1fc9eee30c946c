-- Invoices carry their contract's intake (issue 11; decision 029): the invoice views filtered by intake read it
-- from the invoice's own row and indexes. Through the contract, numbered invoices of intake 2024 by number took
-- 0.8 s: their numbers come late, and a walk of the number index looked up every earlier invoice's contract.
-- The backfill first, then the triggers that keep it right (as 0018 for scholarship payments), then the indexes.
ALTER TABLE "invoices" ADD COLUMN "intake" smallint;--> statement-breakpoint
UPDATE "invoices" i SET "intake" = c."intake" FROM "contracts" c WHERE c."id" = i."contract_id";--> statement-breakpoint
-- An invoice takes its contract's intake when it is made and when its contract changes (or when anything writes
-- the intake itself: it always comes from the contract). FOR SHARE waits for a concurrent change of the
-- contract's intake to commit, so that change's update of the invoices cannot miss this one.
CREATE FUNCTION "invoices_contract_intake"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT c."intake" INTO NEW."intake" FROM "contracts" c WHERE c."id" = NEW."contract_id" FOR SHARE;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "invoices_contract_intake" BEFORE INSERT OR UPDATE OF "contract_id", "intake"
  ON "invoices" FOR EACH ROW EXECUTE FUNCTION "invoices_contract_intake"();--> statement-breakpoint
-- A contract whose intake changes passes it on to its invoices.
CREATE FUNCTION "contracts_invoice_intake"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "invoices" SET "intake" = NEW."intake" WHERE "contract_id" = NEW."id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "contracts_invoice_intake" AFTER UPDATE OF "intake" ON "contracts" FOR EACH ROW
  WHEN (OLD."intake" IS DISTINCT FROM NEW."intake")
  EXECUTE FUNCTION "contracts_invoice_intake"();--> statement-breakpoint
CREATE INDEX "invoices_intake_number_idx" ON "invoices" USING btree ("intake","is_creditnote","number","id") WHERE "invoices"."number" is not null;--> statement-breakpoint
CREATE INDEX "invoices_planned_intake_idx" ON "invoices" USING btree ("intake","document_reference","id") WHERE "invoices"."number" is null and not "invoices"."is_creditnote";
