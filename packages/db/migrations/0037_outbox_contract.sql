ALTER TABLE "outbox" ADD COLUMN "contract_id" integer;--> statement-breakpoint
-- The mails queued before: the contract of the record each is about (decision 045); a deleted record's stays empty.
UPDATE "outbox" o SET "contract_id" = CASE o."resource"
    WHEN 'contract' THEN (SELECT c."id" FROM "contracts" c WHERE c."id" = o."record_id")
    WHEN 'invoice' THEN (SELECT i."contract_id" FROM "invoices" i WHERE i."id" = o."record_id")
    WHEN 'invoice_payment' THEN (SELECT p."contract_id" FROM "invoice_payments" p WHERE p."id" = o."record_id")
  END
  WHERE o."resource" IN ('contract', 'invoice', 'invoice_payment') AND o."record_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_contract_idx" ON "outbox" USING btree ("contract_id","created_timestamp" DESC NULLS LAST,"id" DESC NULLS LAST);