-- Customers' bank accounts. Removal is a mark, so collections made from an
-- account keep pointing at it.
CREATE TABLE bank_accounts (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    customer_id TEXT NOT NULL REFERENCES customers(id),
    bank TEXT NOT NULL,
    branch_code TEXT NOT NULL,
    account_type TEXT NOT NULL,
    holder_name TEXT NOT NULL,
    account_number TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    removed_at INTEGER
);
CREATE INDEX bank_accounts_by_customer ON bank_accounts(merchant_id, mode, customer_id);
CREATE UNIQUE INDEX bank_accounts_unique ON bank_accounts(merchant_id, mode, customer_id, bank, account_number) WHERE removed_at IS NULL;
