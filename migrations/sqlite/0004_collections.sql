-- Collections: mandates (the authority to debit), payments (the schedule)
-- and transactions (one debit attempt each), plus each merchant stream's
-- business clock and payment method settings. Dates a bank works with are
-- `YYYY-MM-DD` text (business dates, not instants); money is cents.

CREATE TABLE payment_method_settings (
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    -- The wire shape as JSON: it is read and written whole.
    settings TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (merchant_id, mode)
);

-- The day the scheduler has played out, and in test mode how far the
-- merchant moved the clock ahead of the calendar.
CREATE TABLE business_clocks (
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    offset_days INTEGER NOT NULL,
    processed_through TEXT NOT NULL,
    PRIMARY KEY (merchant_id, mode)
);

CREATE TABLE mandates (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    customer_id TEXT NOT NULL REFERENCES customers(id),
    bank_account_id TEXT NOT NULL REFERENCES bank_accounts(id),
    method TEXT NOT NULL,
    status TEXT NOT NULL,
    archived INTEGER NOT NULL,
    client_type TEXT NOT NULL,
    industry TEXT NOT NULL,
    contract_reference TEXT NOT NULL,
    amount_cents INTEGER NOT NULL,
    maximum_collection_cents INTEGER,
    allow_tracking INTEGER NOT NULL,
    tracking_days INTEGER,
    allow_date_adjustment INTEGER NOT NULL,
    variable_amount INTEGER NOT NULL,
    adjustment_category TEXT NOT NULL,
    adjustment_type TEXT,
    adjustment_rate TEXT NOT NULL,
    adjustment_amount_cents INTEGER,
    approval_window TEXT,
    abbreviated_name TEXT NOT NULL,
    authentication_requests INTEGER NOT NULL,
    authentication_due TEXT,
    end_date TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX mandates_by_merchant ON mandates(merchant_id, mode, created_at);
CREATE INDEX mandates_by_status ON mandates(merchant_id, mode, status);

CREATE TABLE payments (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    kind TEXT NOT NULL,
    customer_id TEXT NOT NULL REFERENCES customers(id),
    mandate_id TEXT NOT NULL REFERENCES mandates(id),
    method TEXT NOT NULL,
    status TEXT NOT NULL,
    stop_reason TEXT,
    amount_cents INTEGER NOT NULL,
    first_collection_cents INTEGER,
    date_to_process TEXT,
    transaction_reference TEXT NOT NULL,
    start_date TEXT,
    end_date TEXT,
    collection_interval TEXT,
    day_to_process INTEGER,
    -- The nominal date of the next debit and the business day it is made.
    next_nominal_date TEXT,
    next_action_date TEXT,
    -- An unpaid 02 waiting to be presented again on the next date.
    rerun_cents INTEGER,
    collected_cents INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    consecutive_unpaids INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX payments_by_merchant ON payments(merchant_id, mode, kind, created_at);
CREATE INDEX payments_due ON payments(merchant_id, mode, status, next_action_date);
CREATE INDEX payments_by_mandate ON payments(merchant_id, mode, mandate_id);

CREATE TABLE transactions (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    payment_id TEXT NOT NULL REFERENCES payments(id),
    mandate_id TEXT NOT NULL REFERENCES mandates(id),
    customer_id TEXT NOT NULL REFERENCES customers(id),
    method TEXT NOT NULL,
    reference TEXT NOT NULL,
    amount_cents INTEGER NOT NULL,
    action_date TEXT NOT NULL,
    status TEXT NOT NULL,
    unpaid_code TEXT,
    attempt INTEGER NOT NULL,
    -- The bank's scripted reports (test mode) and how many were applied.
    script TEXT NOT NULL,
    script_step INTEGER NOT NULL,
    -- JSON list of {status, date, unpaidCode}.
    history TEXT NOT NULL,
    -- The business date the bank settled it (paid or returned), for the figures.
    settled_on TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX transactions_by_merchant ON transactions(merchant_id, mode, created_at);
CREATE INDEX transactions_by_payment ON transactions(merchant_id, mode, payment_id);
CREATE INDEX transactions_by_status ON transactions(merchant_id, mode, status);
CREATE INDEX transactions_by_action_date ON transactions(merchant_id, mode, action_date);
