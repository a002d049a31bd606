-- Electronic mandate requests: a merchant asks a payer to sign a debit
-- order mandate themselves through a link. `token` is the link's secret
-- part (the merchant may copy the link again, so it is kept, not hashed:
-- it grants no more than the payer's own sign-up page).

CREATE TABLE e_mandate_requests (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    token TEXT NOT NULL,
    customer_id TEXT REFERENCES customers(id),
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    cellphone TEXT NOT NULL,
    language TEXT NOT NULL,
    method TEXT NOT NULL,
    amount_cents INTEGER NOT NULL,
    max_cents INTEGER,
    request_interval TEXT NOT NULL,
    start_date TEXT NOT NULL,
    -- Comma-separated `EMandateChangeable` names.
    payer_may_change TEXT NOT NULL,
    state TEXT NOT NULL,
    expires_on TEXT NOT NULL,
    sends INTEGER NOT NULL,
    mandate_id TEXT REFERENCES mandates(id),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX e_mandate_requests_by_merchant ON e_mandate_requests(merchant_id, mode, id);
CREATE UNIQUE INDEX e_mandate_requests_by_token ON e_mandate_requests(token);
