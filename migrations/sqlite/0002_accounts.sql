-- Accounts: e-mail verification, language, two-factor sign-in, backup codes,
-- one-time links, the mail outbox, public session ids and business info.
ALTER TABLE users ADD COLUMN email_verified_at INTEGER;
ALTER TABLE users ADD COLUMN pending_email TEXT;
ALTER TABLE users ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
ALTER TABLE users ADD COLUMN totp_secret TEXT;
ALTER TABLE users ADD COLUMN totp_pending_secret TEXT;
-- The last TOTP time step accepted: a code is never accepted twice.
ALTER TABLE users ADD COLUMN totp_last_step INTEGER NOT NULL DEFAULT 0;

-- Sessions are shown and signed out by this id; the token hash never leaves the server.
ALTER TABLE sessions ADD COLUMN public_id TEXT;
UPDATE sessions SET public_id = 'ses_' || substr(token_hash, 1, 28) WHERE public_id IS NULL;
CREATE UNIQUE INDEX sessions_public_id ON sessions(public_id);

CREATE TABLE backup_codes (
    user_id TEXT NOT NULL REFERENCES users(id),
    code_hash TEXT NOT NULL,
    used_at INTEGER,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, code_hash)
);

-- Password-reset and e-mail-verification links; only the token's hash is kept.
CREATE TABLE auth_links (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id),
    purpose TEXT NOT NULL,
    email TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER,
    created_at INTEGER NOT NULL
);
CREATE INDEX auth_links_by_user ON auth_links(user_id, purpose);

CREATE TABLE mail_outbox (
    id TEXT PRIMARY KEY,
    to_address TEXT NOT NULL,
    subject TEXT NOT NULL,
    text_body TEXT NOT NULL,
    html_body TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    sent_at INTEGER,
    last_error TEXT,
    created_at INTEGER NOT NULL
);
CREATE INDEX mail_outbox_due ON mail_outbox(sent_at, next_attempt_at);

ALTER TABLE merchants ADD COLUMN legal_name TEXT NOT NULL DEFAULT '';
ALTER TABLE merchants ADD COLUMN trading_name TEXT NOT NULL DEFAULT '';
ALTER TABLE merchants ADD COLUMN registration_number TEXT NOT NULL DEFAULT '';
ALTER TABLE merchants ADD COLUMN vat_number TEXT NOT NULL DEFAULT '';
ALTER TABLE merchants ADD COLUMN industry TEXT NOT NULL DEFAULT '';
ALTER TABLE merchants ADD COLUMN physical_address TEXT NOT NULL DEFAULT '';
ALTER TABLE merchants ADD COLUMN contact_person TEXT NOT NULL DEFAULT '';
ALTER TABLE merchants ADD COLUMN support_email TEXT NOT NULL DEFAULT '';
ALTER TABLE merchants ADD COLUMN support_phone TEXT NOT NULL DEFAULT '';
ALTER TABLE merchants ADD COLUMN statement_name TEXT NOT NULL DEFAULT '';
ALTER TABLE merchants ADD COLUMN require_two_factor INTEGER NOT NULL DEFAULT 0;
