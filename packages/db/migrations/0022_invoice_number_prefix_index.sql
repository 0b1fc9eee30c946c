-- Invoice numbers that start with a text, as a range of this index (the pattern operator class compares
-- character by character, whatever the database's collation): the invoice quick filter ranks them first, and the
-- invoices of the contracts found that do are looked up here. Through the number's trigram index the same lookup
-- read the posting lists of "202" and "022", which nearly every number has (numbered invoices "2022-314":
-- 32 ms → 0.3 ms).
CREATE INDEX "invoices_number_prefix_idx" ON "invoices" USING btree ("number" varchar_pattern_ops);
