-- A planned invoice made before every path wrote its reference gets the one documentReference() gives it
-- (packages/contracts rules/document-types.ts), so the CHECK below holds for existing data.
UPDATE "invoices" i SET "document_reference" = c."application_number" || '-Y' || i."year"
    || CASE WHEN i."semester" > 0 THEN '-S' || i."semester" ELSE '' END || '-T' || i."document_type_id"
  FROM "contracts" c
  WHERE c."id" = i."contract_id" AND i."number" IS NULL AND NOT i."is_creditnote" AND i."document_reference" IS NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_creditnote_number_check" CHECK (not "invoices"."is_creditnote" or "invoices"."number" is not null);--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_planned_reference_check" CHECK ("invoices"."number" is not null or "invoices"."is_creditnote" or "invoices"."document_reference" is not null);
