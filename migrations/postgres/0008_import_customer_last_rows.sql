-- For each customer reference an import names, the last valid row that
-- names it, as a JSON object (`{"CUST-1": 25, ...}`), found when the file
-- was checked. A customer on many rows is then written when first seen and
-- again only at its last row, whose details are the ones that stand,
-- instead of once per batch. Imports confirmed before this have none and
-- write the customer in every batch, as they did.

ALTER TABLE import_files ADD COLUMN customer_last_rows TEXT;
