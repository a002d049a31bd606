-- Failed sign-ins per e-mail address, by the address's hash. Kept here, not
-- in one node's memory, so every node refuses a locked account alike and a
-- completed password reset lifts the lockout everywhere. Addresses without
-- an account are counted the same way, so the answers never tell whether an
-- account exists; rows are pruned once their window has passed.
CREATE TABLE signin_failures (
    email_hash TEXT PRIMARY KEY,
    failures BIGINT NOT NULL,
    last_failed_at BIGINT NOT NULL
);
CREATE INDEX signin_failures_by_age ON signin_failures(last_failed_at);

-- How many mails of one kind went to one recipient in the current window
-- (reset links per e-mail address, second-factor warnings per account), so
-- that requests from many client addresses cannot flood one inbox.
CREATE TABLE mail_quotas (
    quota_key TEXT PRIMARY KEY,
    sent BIGINT NOT NULL,
    window_ends_at BIGINT NOT NULL
);
CREATE INDEX mail_quotas_by_end ON mail_quotas(window_ends_at);
