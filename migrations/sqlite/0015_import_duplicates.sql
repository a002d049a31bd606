-- Uploading the same spreadsheet twice must not debit every payer twice.
-- An import keeps the SHA-256 of its file (hex), so a second upload of the
-- same bytes by the merchant in the same mode is recognised before it is
-- confirmed; imports confirmed before this have none. The user's choice at
-- confirm is kept with the import: whether rows repeating a payment were
-- imported anyway, and which earlier import of the same file they knowingly
-- imported again. Rows skipped as repeats are counted apart from failures.

ALTER TABLE imports ADD COLUMN file_sha256 TEXT;
ALTER TABLE imports ADD COLUMN include_duplicates INTEGER NOT NULL DEFAULT 0;
ALTER TABLE imports ADD COLUMN duplicate_of TEXT;
ALTER TABLE imports ADD COLUMN skipped_rows INTEGER NOT NULL DEFAULT 0;
CREATE INDEX imports_by_file ON imports(merchant_id, mode, file_sha256);

-- A row repeats a payment when the customer's payments of the same kind and
-- method hold the same contract reference, transaction reference and date:
-- the check looks a batch's customers up together, by this index. Customer
-- ids are unique on their own; the short key keeps the pages an import's
-- batches dirty (and write to the WAL) fewer, as rows of many customers land
-- all over the index.
CREATE INDEX payments_by_customer ON payments(customer_id);
