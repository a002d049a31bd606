-- API tokens. A token belongs to one merchant's mode. Only a keyed hash of
-- its secret is stored (HMAC under a sub-key of the server key): a copy of
-- the database alone opens nothing. While a rolled secret is in its grace
-- period its hash is kept beside the new one, until `previous_secret_until`.
CREATE TABLE api_tokens (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    name TEXT NOT NULL,
    -- The secret's first characters, shown to recognise it.
    prefix TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    previous_secret_hash TEXT,
    previous_secret_until INTEGER,
    -- JSON of the section matrix, like a custom role's.
    permissions TEXT NOT NULL,
    -- Space-separated IP addresses or CIDR ranges; empty: any.
    allowed_addresses TEXT NOT NULL DEFAULT '',
    expires_at INTEGER,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER,
    last_used_at INTEGER,
    last_used_from TEXT
);
CREATE UNIQUE INDEX api_tokens_by_secret ON api_tokens(secret_hash);
CREATE INDEX api_tokens_by_previous_secret ON api_tokens(previous_secret_hash);
CREATE INDEX api_tokens_by_stream ON api_tokens(merchant_id, mode, created_at);
