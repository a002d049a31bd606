-- Failed API token authentications per client address, by the address's
-- hash, in the current one-minute window. Kept here, not in one node's
-- memory, so that guessing tokens through several nodes is held to one
-- limit: each node also keeps its own count, and throttles an address once
-- the shared count has reached the limit. Rows are pruned once their window
-- has passed.
CREATE TABLE api_token_failures (
    address_hash TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    window_ends_at INTEGER NOT NULL
);
CREATE INDEX api_token_failures_by_end ON api_token_failures(window_ends_at);
