-- Spreadsheet imports. A confirmed import keeps its file: the commit reads
-- it again row by row, so a node killed mid-import resumes from
-- `next_row` on its next start, with no row lost and none doubled (each
-- batch of payments and the cursor move commit together, and a payment's
-- (import, row) is unique besides).

CREATE TABLE imports (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    kind TEXT NOT NULL,
    template TEXT NOT NULL,
    file_name TEXT NOT NULL,
    file BYTEA NOT NULL,
    -- The business date the rows were checked against; a resumed commit
    -- checks them against the same date.
    checked_on TEXT NOT NULL,
    status TEXT NOT NULL,
    total_rows BIGINT NOT NULL,
    valid_rows BIGINT NOT NULL,
    invalid_rows BIGINT NOT NULL,
    committed_rows BIGINT NOT NULL,
    failed_rows BIGINT NOT NULL,
    -- Every spreadsheet row up to this one is done.
    next_row BIGINT NOT NULL,
    created_by TEXT NOT NULL,
    created_by_name TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    finished_at BIGINT
);
CREATE INDEX imports_by_merchant ON imports(merchant_id, mode, kind, created_at);
CREATE INDEX imports_committing ON imports(status);

-- The problems of an import's rows: rules that refused a row, and valid
-- rows that failed to write.
CREATE TABLE import_issues (
    import_id TEXT NOT NULL REFERENCES imports(id),
    row_number BIGINT NOT NULL,
    column_name TEXT NOT NULL,
    code TEXT NOT NULL
);
CREATE INDEX import_issues_by_import ON import_issues(import_id, row_number);

ALTER TABLE payments ADD COLUMN import_id TEXT;
ALTER TABLE payments ADD COLUMN import_row BIGINT;
CREATE UNIQUE INDEX payments_import_row ON payments(import_id, import_row);
