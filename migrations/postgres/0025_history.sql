-- The account history. Rows with a merchant are written by the stream's one
-- writer in the event's own transaction: one per record the event changed,
-- with the record before and after (JSON as tabs see it), who caused it and
-- from where. Rows without a merchant are a user's own sign-ins, failed
-- sign-ins and two-factor changes; the history of every merchant the user
-- is a member of shows them. The product never updates or deletes a row.
CREATE TABLE history_entries (
    id TEXT PRIMARY KEY,
    merchant_id TEXT REFERENCES merchants(id),
    mode TEXT,
    -- The stream event the row came from.
    seq BIGINT,
    -- For account rows: whose account.
    user_id TEXT REFERENCES users(id),
    actor_kind TEXT NOT NULL,
    actor_id TEXT,
    -- The member's name when it happened.
    actor_name TEXT,
    command_id TEXT,
    address TEXT,
    user_agent TEXT,
    -- The permission section of the record; none for what every member sees.
    section TEXT,
    record_kind TEXT NOT NULL,
    record_id TEXT,
    action TEXT NOT NULL,
    -- The changed fields' names, space-separated.
    fields TEXT NOT NULL,
    before_json TEXT,
    after_json TEXT,
    created_at BIGINT NOT NULL
);
CREATE INDEX history_by_stream ON history_entries(merchant_id, mode, created_at);
CREATE INDEX history_by_record ON history_entries(merchant_id, mode, record_kind, record_id, seq);
CREATE INDEX history_by_user ON history_entries(user_id, created_at);
