-- Pay pages (the merchant's public checkout links), the commerce orders a
-- checkout makes, cards kept on file, and each pay-page attempt (the
-- idempotency record of one submitted form).
--
-- A transaction no longer always belongs to a debit order: a pay-page or
-- card-on-file charge has an order instead of a payment and mandate, and
-- carries its own payer name, bank or card.

CREATE TABLE pay_pages (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    amount_mode TEXT NOT NULL,
    amount_cents INTEGER,
    min_cents INTEGER,
    max_cents INTEGER,
    kind TEXT NOT NULL,
    page_interval TEXT,
    -- Comma-separated method ids.
    methods TEXT NOT NULL,
    expires_on TEXT,
    max_uses INTEGER,
    uses INTEGER NOT NULL,
    reference TEXT NOT NULL,
    success_url TEXT,
    colour TEXT NOT NULL,
    logo BLOB,
    logo_type TEXT,
    logo_version INTEGER,
    active INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX pay_pages_by_merchant ON pay_pages(merchant_id, mode, id);

CREATE TABLE orders (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    page_id TEXT REFERENCES pay_pages(id),
    -- JSON list of {description, quantity, unitCents}.
    items TEXT NOT NULL,
    amount_cents INTEGER NOT NULL,
    payer_name TEXT NOT NULL,
    payer_email TEXT,
    customer_id TEXT REFERENCES customers(id),
    method TEXT NOT NULL,
    status TEXT NOT NULL,
    failure TEXT,
    reference TEXT NOT NULL,
    transaction_id TEXT,
    -- Lower-cased payer name, e-mail and reference, for search.
    search_text TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX orders_by_merchant ON orders(merchant_id, mode, id);
CREATE INDEX orders_by_status ON orders(merchant_id, mode, status);

CREATE TABLE cards (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    customer_id TEXT NOT NULL REFERENCES customers(id),
    -- The acquirer's token: what a later charge sends instead of the number.
    token TEXT NOT NULL,
    brand TEXT NOT NULL,
    last_four TEXT NOT NULL,
    expiry_month INTEGER NOT NULL,
    expiry_year INTEGER NOT NULL,
    page_id TEXT REFERENCES pay_pages(id),
    created_at INTEGER NOT NULL
);
CREATE INDEX cards_by_merchant ON cards(merchant_id, mode, id);
CREATE INDEX cards_by_customer ON cards(merchant_id, mode, customer_id);

-- One submitted pay-page form. `attempt_key` comes from the form, so a
-- double submit finds the first attempt instead of charging twice.
CREATE TABLE pay_attempts (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    page_id TEXT NOT NULL REFERENCES pay_pages(id),
    attempt_key TEXT NOT NULL,
    method TEXT NOT NULL,
    -- awaiting_3ds | awaiting_bank | awaiting_mandate | succeeded | failed
    status TEXT NOT NULL,
    order_id TEXT NOT NULL REFERENCES orders(id),
    transaction_id TEXT,
    mandate_id TEXT,
    -- The payer's answers as JSON, to show the form again after a refusal:
    -- never the card number or CVV.
    form TEXT NOT NULL,
    failure TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (page_id, attempt_key)
);

-- SQLite cannot relax NOT NULL in place: the table is rebuilt (nothing
-- references it), keeping every row.
CREATE TABLE transactions_rebuilt (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    payment_id TEXT REFERENCES payments(id),
    mandate_id TEXT REFERENCES mandates(id),
    customer_id TEXT REFERENCES customers(id),
    order_id TEXT REFERENCES orders(id),
    method TEXT NOT NULL,
    reference TEXT NOT NULL,
    amount_cents INTEGER NOT NULL,
    action_date TEXT NOT NULL,
    status TEXT NOT NULL,
    unpaid_code TEXT,
    attempt INTEGER NOT NULL,
    script TEXT NOT NULL,
    script_step INTEGER NOT NULL,
    history TEXT NOT NULL,
    settled_on TEXT,
    -- Without a payment, mandate and bank account: what the payer gave.
    payment_kind TEXT,
    payer_name TEXT,
    bank TEXT,
    last_digits TEXT,
    card_brand TEXT,
    failure TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
INSERT INTO transactions_rebuilt (id, merchant_id, mode, payment_id, mandate_id, customer_id, method, reference, amount_cents, action_date, status, unpaid_code, attempt, script, script_step, history, settled_on, created_at, updated_at) SELECT id, merchant_id, mode, payment_id, mandate_id, customer_id, method, reference, amount_cents, action_date, status, unpaid_code, attempt, script, script_step, history, settled_on, created_at, updated_at FROM transactions;
DROP TABLE transactions;
ALTER TABLE transactions_rebuilt RENAME TO transactions;
CREATE INDEX transactions_by_merchant ON transactions(merchant_id, mode, created_at);
CREATE INDEX transactions_by_payment ON transactions(merchant_id, mode, payment_id);
CREATE INDEX transactions_by_status ON transactions(merchant_id, mode, status);
CREATE INDEX transactions_by_action_date ON transactions(merchant_id, mode, action_date);
CREATE INDEX transactions_by_order ON transactions(merchant_id, mode, order_id);
