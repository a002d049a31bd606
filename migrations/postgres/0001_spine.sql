-- Users, merchants, memberships and browser sessions.
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE merchants (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE memberships (
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    user_id TEXT NOT NULL REFERENCES users(id),
    role TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (merchant_id, user_id)
);
CREATE INDEX memberships_by_user ON memberships(user_id);

-- Only a SHA-256 of the session token is kept.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    user_agent TEXT NOT NULL,
    address TEXT NOT NULL
);
CREATE INDEX sessions_by_user ON sessions(user_id);

-- Server-wide secrets shared by every node (the CSRF key).
CREATE TABLE server_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- One row per merchant stream (merchant and mode). Bumping `seq` takes the
-- row's write lock, which orders every write of that merchant, across nodes.
CREATE TABLE merchant_streams (
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    epoch TEXT NOT NULL,
    seq BIGINT NOT NULL,
    PRIMARY KEY (merchant_id, mode)
);

-- Every delta, written in the same transaction as the change it describes:
-- the truth for resume and for other nodes.
CREATE TABLE events (
    merchant_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    seq BIGINT NOT NULL,
    changes BYTEA NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (merchant_id, mode, seq)
);

-- Commands already run, by their client-made id, so a retry runs once.
CREATE TABLE command_results (
    merchant_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    command_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    reply BYTEA NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (merchant_id, mode, command_id)
);

CREATE TABLE customers (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    cellphone TEXT NOT NULL,
    id_type TEXT,
    id_number TEXT NOT NULL,
    address_line1 TEXT NOT NULL,
    address_line2 TEXT NOT NULL,
    city TEXT NOT NULL,
    postal_code TEXT NOT NULL,
    reference TEXT,
    search_text TEXT NOT NULL,
    archived_at BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX customers_by_merchant ON customers(merchant_id, mode, id);
CREATE UNIQUE INDEX customers_reference ON customers(merchant_id, mode, reference);
