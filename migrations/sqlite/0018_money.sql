-- The ledger of each merchant stream: every movement of the merchant's money
-- as one signed entry in cents (credits positive, debits negative). The
-- balance is always the sum of these rows, never a stored running total, so
-- nothing can drift. Entries are only ever added: a late unpaid or a dispute
-- is a new entry against the collection, not an edit of it.
CREATE TABLE ledger_entries (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    -- collection, fee, late_unpaid, dispute, fee_return, refund, refund_fee_return.
    kind TEXT NOT NULL,
    amount_cents INTEGER NOT NULL,
    method TEXT NOT NULL,
    -- The record the entry belongs to: a transaction, order or payout.
    transaction_id TEXT,
    order_id TEXT,
    -- One entry of each kind per record: posting again after a retried step
    -- adds nothing.
    source_id TEXT NOT NULL,
    -- The business day of the movement and the one its money is available
    -- for payouts (the method's settlement delay).
    entry_date TEXT NOT NULL,
    available_on TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX ledger_entries_once ON ledger_entries(merchant_id, mode, source_id, kind);
CREATE INDEX ledger_entries_by_date ON ledger_entries(merchant_id, mode, entry_date);
