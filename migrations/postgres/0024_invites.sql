-- Invitations to join a merchant's team. The link's token goes out in the
-- mail; only its hash is kept. An invite is bound to the address it was
-- sent to, lives seven days and is used once: accepting, revoking or
-- sending a new one to the same address ends it.
CREATE TABLE invites (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    email TEXT NOT NULL,
    role TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    invited_by TEXT NOT NULL REFERENCES users(id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    accepted_at BIGINT,
    accepted_by TEXT REFERENCES users(id),
    revoked_at BIGINT
);
CREATE UNIQUE INDEX invites_by_token ON invites(token_hash);
CREATE INDEX invites_by_merchant ON invites(merchant_id, email);
