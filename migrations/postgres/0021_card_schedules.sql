-- Cards charged on schedule: a card on file may carry a recurring charge
-- (from a recurring card pay page, or set by the merchant) that the
-- scheduler makes on its dates, retries when refused, and pauses when the
-- retries run out. The payer's address and language are kept for the
-- reminders and the update-card mail.
ALTER TABLE cards ADD COLUMN schedule_status TEXT;
ALTER TABLE cards ADD COLUMN schedule_amount_cents BIGINT;
ALTER TABLE cards ADD COLUMN schedule_interval TEXT;
ALTER TABLE cards ADD COLUMN schedule_reference TEXT;
-- The nominal date of the next charge; it stays put while that charge is retried.
ALTER TABLE cards ADD COLUMN next_charge_date TEXT;
ALTER TABLE cards ADD COLUMN retry_date TEXT;
ALTER TABLE cards ADD COLUMN failed_tries BIGINT NOT NULL DEFAULT 0;
ALTER TABLE cards ADD COLUMN scheduled_charges BIGINT NOT NULL DEFAULT 0;
ALTER TABLE cards ADD COLUMN pause_reason TEXT;
ALTER TABLE cards ADD COLUMN payer_email TEXT;
ALTER TABLE cards ADD COLUMN payer_language TEXT NOT NULL DEFAULT 'en';
-- Each reminder is mailed once: the first charge's, and the expiry's (per card number).
ALTER TABLE cards ADD COLUMN first_reminder_sent BIGINT NOT NULL DEFAULT 0;
ALTER TABLE cards ADD COLUMN expiry_reminder_sent BIGINT NOT NULL DEFAULT 0;
CREATE INDEX cards_scheduled ON cards(merchant_id, mode, schedule_status);

-- A payer's link to replace the card of a paused (or expiring) schedule.
-- Only the token's SHA-256 is kept; a link is used once and expires.
CREATE TABLE card_update_links (
    token_hash TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    card_id TEXT NOT NULL REFERENCES cards(id),
    expires_at BIGINT NOT NULL,
    used_at BIGINT,
    created_at BIGINT NOT NULL
);
CREATE INDEX card_update_links_by_card ON card_update_links(merchant_id, mode, card_id);
