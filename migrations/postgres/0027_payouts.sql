-- Money out of a merchant stream. The ledger (0018) stays the one record of
-- the balance: a payout adds `payout` and `payout_fee` entries and, if the
-- bank refuses it, one `payout_return` entry; nothing here holds a total.

-- One row per stream: the settlement account payouts go to (checked with
-- the bank's account verification) and the payout schedule.
CREATE TABLE payout_settings (
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    bank TEXT,
    branch_code TEXT,
    account_type TEXT,
    holder_name TEXT,
    account_number TEXT,
    verified_at BIGINT,
    -- Payouts to the settlement account wait until then after a change
    -- (milliseconds by the stream's clock, test clock included).
    held_until BIGINT,
    -- off, daily, weekly, monthly.
    schedule_interval TEXT NOT NULL,
    schedule_weekday BIGINT NOT NULL,
    schedule_day BIGINT NOT NULL,
    minimum_cents BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (merchant_id, mode)
);

CREATE TABLE payouts (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    -- settlement or customer.
    kind TEXT NOT NULL,
    -- pending, submitted, paid, failed.
    status TEXT NOT NULL,
    amount_cents BIGINT NOT NULL,
    fee_cents BIGINT NOT NULL,
    net_cents BIGINT NOT NULL,
    automatic BIGINT NOT NULL,
    holder_name TEXT NOT NULL,
    -- Where the money goes, copied when the payout is made: a later change
    -- of the settlement account does not redirect it.
    account_number TEXT NOT NULL,
    customer_id TEXT,
    bank_account_id TEXT,
    transaction_id TEXT,
    reason TEXT,
    failure TEXT,
    requested_on TEXT NOT NULL,
    submitted_on TEXT,
    -- The status steps as JSON ([{status, date, at}]).
    history TEXT NOT NULL,
    -- The schedule's business day for an automatic payout: one per day.
    schedule_day TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX payouts_by_stream ON payouts(merchant_id, mode, created_at);
CREATE INDEX payouts_by_status ON payouts(merchant_id, mode, status);
CREATE UNIQUE INDEX payouts_schedule_day ON payouts(merchant_id, mode, schedule_day);

-- The ledger entries (or the parts of them) each payout settles: they add
-- up to the payout's amount. A failed payout's lines are free again.
CREATE TABLE payout_lines (
    payout_id TEXT NOT NULL REFERENCES payouts(id),
    entry_id TEXT NOT NULL REFERENCES ledger_entries(id),
    merchant_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    amount_cents BIGINT NOT NULL,
    PRIMARY KEY (payout_id, entry_id)
);
CREATE INDEX payout_lines_by_entry ON payout_lines(merchant_id, mode, entry_id);

-- What the (simulated) bank received: one instruction per payout, ever.
-- Written in the transaction that marks the payout submitted, so a crash
-- leaves a payout either pending with no instruction or submitted with one.
CREATE TABLE payout_submissions (
    payout_id TEXT PRIMARY KEY REFERENCES payouts(id),
    merchant_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    submitted_on TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
