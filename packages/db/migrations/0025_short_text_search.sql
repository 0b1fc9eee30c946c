-- Quick-filter texts of one or two letters (issue 11; decision 028). The trigram indexes find a LIKE pattern's
-- rows only from three letters on: with "a" or "yi" every row is a candidate, and a search read the whole table
-- or walked a sort's index past rows that do not match (students "yi" 32 ms, numbered invoices "zq" 750 ms).
-- f_short_grams(text) holds every letter of a text and every pair of neighbouring letters, so a word of one or two
-- letters occurs in the text exactly when the array holds it: a GIN index on it finds those rows as exactly as
-- the trigram index finds longer words, and ANALYZE keeps the frequency of each piece (most_common_elems), so the
-- planner knows whether "a" finds most rows (walk the sort's index) or "zq" almost none (collect them).
-- PL/pgSQL: about 5 µs a name, six times quicker than the same as one SQL query (generate_series, array_agg).
-- Pieces holding a space are never searched for (a search word has none); GIN stores each piece once a row.
CREATE FUNCTION f_short_grams(t text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS $$
DECLARE
  grams text[] := string_to_array(t, NULL);
BEGIN
  FOR n IN 1 .. length(t) - 1 LOOP
    grams := grams || substr(t, n, 2);
  END LOOP;
  RETURN grams;
END $$;--> statement-breakpoint
-- The keys the quick filters search: a student's and a contract's name (unaccented, lower case, as the trigram
-- indexes hold them), and lower case, as ILIKE compares them, an application number, an invoice's number and
-- reference, a scholarship payment's number and period, an invoice payment's number.
CREATE INDEX "students_name_grams_idx" ON "students" USING gin (f_short_grams("name_key"));--> statement-breakpoint
CREATE INDEX "contracts_name_grams_idx" ON "contracts" USING gin (f_short_grams("name_key"));--> statement-breakpoint
CREATE INDEX "contracts_application_number_grams_idx" ON "contracts" USING gin (f_short_grams(lower("application_number")));--> statement-breakpoint
CREATE INDEX "invoices_number_grams_idx" ON "invoices" USING gin (f_short_grams(lower("number")));--> statement-breakpoint
CREATE INDEX "invoices_reference_grams_idx" ON "invoices" USING gin (f_short_grams(lower("document_reference")));--> statement-breakpoint
CREATE INDEX "scholarship_payments_number_grams_idx" ON "scholarship_payments" USING gin (f_short_grams(lower("number")));--> statement-breakpoint
CREATE INDEX "scholarship_payments_period_grams_idx" ON "scholarship_payments" USING gin (f_short_grams(lower("period")));--> statement-breakpoint
CREATE INDEX "invoice_payments_number_grams_idx" ON "invoice_payments" USING gin (f_short_grams(lower("number")));--> statement-breakpoint
-- The invoice payments' quick filter had no index for its own number: it read all payments, each with its
-- invoice, contract and student (583k payments: over 30 s for a name, so the request timed out).
CREATE INDEX "invoice_payments_number_trgm_idx" ON "invoice_payments" USING gin ("number" gin_trgm_ops);--> statement-breakpoint
-- The planned invoices of the contracts a search finds: the planned view's 16,666 invoices lie one to a heap
-- page among a million, and reading them all to keep those of 4,176 contracts took 90 ms ("Yıl", "Ferna", "yi").
-- With the columns a searched page and its count read (its sorts, the rank's number), read from the index alone.
CREATE INDEX "invoices_planned_contract_idx" ON "invoices" ("contract_id") INCLUDE ("id", "document_reference", "number", "planned_date") WHERE "number" IS NULL AND NOT "is_creditnote";
--> statement-breakpoint
-- The rows a search shows first, whose name (or application number) starts with the text: found by prefix, not
-- by walking the list's sort for them ("1" starts no contract's name or number, and the walk read all 100k
-- contracts: 35 ms). text_pattern_ops: a plain index serves LIKE 'x%' only under the "C" collation, and the
-- database's is ICU's (or, made beforehand, often C.UTF-8, which PostgreSQL 15 does not count as "C").
CREATE INDEX "students_last_name_key_prefix_idx" ON "students" ("last_name_key" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "students_first_name_key_prefix_idx" ON "students" ("first_name_key" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "contracts_last_name_key_prefix_idx" ON "contracts" ("last_name_key" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "contracts_first_name_key_prefix_idx" ON "contracts" ("first_name_key" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "contracts_application_number_prefix_idx" ON "contracts" (lower("application_number") text_pattern_ops);
