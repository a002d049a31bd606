-- A payer signing a mandate through the payer's pages: from an e-mandate
-- request's link (origin `link`, one row made when the payer consents) or
-- from a recurring pay page offering DebiCheck (origin `pay_page`, made
-- when the payer chooses it, with the page's terms copied in). The row
-- holds the terms, the payer's checked answers (JSON), and where the bank's
-- authentication stands; the customer, bank account, mandate and payment
-- are only made when the bank approves. `token` is the secret part of the
-- pay page's signing link; a link signing is reached by its request's.

CREATE TABLE e_mandate_signings (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    token TEXT NOT NULL,
    origin TEXT NOT NULL,
    request_id TEXT REFERENCES e_mandate_requests(id),
    page_id TEXT,
    method TEXT NOT NULL,
    amount_cents INTEGER NOT NULL,
    max_cents INTEGER,
    sign_interval TEXT NOT NULL,
    start_date TEXT NOT NULL,
    language TEXT NOT NULL,
    state TEXT NOT NULL,
    consent_key TEXT,
    answers TEXT NOT NULL,
    approval_window TEXT,
    auth_started_at INTEGER,
    auth_due_on TEXT,
    mandate_id TEXT REFERENCES mandates(id),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX e_mandate_signings_by_token ON e_mandate_signings(token);
CREATE INDEX e_mandate_signings_by_request ON e_mandate_signings(merchant_id, mode, request_id);
