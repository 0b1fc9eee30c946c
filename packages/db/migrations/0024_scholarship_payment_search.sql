-- The scholarship payments' quick filter (issue 11): a number or a period matched with ILIKE, or the payment's
-- contract found by name or application number. Without an index on number and period, PostgreSQL read all
-- 400k payments and tested each against the array of contracts a common name finds: 5.8 s for "Ferná". With a
-- trigram index on each, the three arms are one BitmapOr of index searches: 26 ms.
CREATE INDEX "scholarship_payments_number_trgm_idx" ON "scholarship_payments" USING gin ("number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "scholarship_payments_period_trgm_idx" ON "scholarship_payments" USING gin ("period" gin_trgm_ops);
