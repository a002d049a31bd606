-- Collections: mandates (the authority to debit), payments (the schedule)
-- and transactions (one debit attempt each), plus each merchant stream's
-- business clock and payment method settings. Dates a bank works with are
-- `YYYY-MM-DD` text (business dates, not instants); money is cents.

CREATE TABLE payment_method_settings (
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    -- The wire shape as JSON: it is read and written whole.
    settings TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (merchant_id, mode)
);

-- The day the scheduler has played out, and in test mode how far the
-- merchant moved the clock ahead of the calendar.
CREATE TABLE business_clocks (
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    offset_days BIGINT NOT NULL,
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
    archived BIGINT NOT NULL,
    client_type TEXT NOT NULL,
    industry TEXT NOT NULL,
    contract_reference TEXT NOT NULL,
    amount_cents BIGINT NOT NULL,
    maximum_collection_cents BIGINT,
    allow_tracking BIGINT NOT NULL,
    tracking_days BIGINT,
    allow_date_adjustment BIGINT NOT NULL,
    variable_amount BIGINT NOT NULL,
    adjustment_category TEXT NOT NULL,
    adjustment_type TEXT,
    adjustment_rate TEXT NOT NULL,
    adjustment_amount_cents BIGINT,
    approval_window TEXT,
    abbreviated_name TEXT NOT NULL,
    authentication_requests BIGINT NOT NULL,
    authentication_due TEXT,
    end_date TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
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
    amount_cents BIGINT NOT NULL,
    first_collection_cents BIGINT,
    date_to_process TEXT,
    transaction_reference TEXT NOT NULL,
    start_date TEXT,
    end_date TEXT,
    collection_interval TEXT,
    day_to_process BIGINT,
    -- The nominal date of the next debit and the business day it is made.
    next_nominal_date TEXT,
    next_action_date TEXT,
    -- An unpaid 02 waiting to be presented again on the next date.
    rerun_cents BIGINT,
    collected_cents BIGINT NOT NULL,
    attempts BIGINT NOT NULL,
    consecutive_unpaids BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
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
    amount_cents BIGINT NOT NULL,
    action_date TEXT NOT NULL,
    status TEXT NOT NULL,
    unpaid_code TEXT,
    attempt BIGINT NOT NULL,
    -- The bank's scripted reports (test mode) and how many were applied.
    script TEXT NOT NULL,
    script_step BIGINT NOT NULL,
    -- JSON list of {status, date, unpaidCode}.
    history TEXT NOT NULL,
    -- The business date the bank settled it (paid or returned), for the figures.
    settled_on TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX transactions_by_merchant ON transactions(merchant_id, mode, created_at);
CREATE INDEX transactions_by_payment ON transactions(merchant_id, mode, payment_id);
CREATE INDEX transactions_by_status ON transactions(merchant_id, mode, status);
CREATE INDEX transactions_by_action_date ON transactions(merchant_id, mode, action_date);
