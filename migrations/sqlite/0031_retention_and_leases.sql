-- Old events and stored command replies are pruned past their retention
-- windows, oldest first and in small batches: these indexes find them
-- without reading the whole tables.
CREATE INDEX events_by_age ON events(created_at);
CREATE INDEX command_results_by_age ON command_results(created_at);

-- Background work that one node at a time does (such as pruning), claimed
-- by name until `lease_until`; a node that stops leaves it to another once
-- its lease runs out.
CREATE TABLE job_leases (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    lease_until INTEGER NOT NULL
);

-- Which node's scheduler plays a stream's days: claimed with FOR UPDATE SKIP
-- LOCKED on PostgreSQL, renewed each round by its holder, and free for any
-- node once its lease runs out (the holder stopped).
CREATE TABLE scheduler_leases (
    merchant_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    holder TEXT NOT NULL,
    lease_until INTEGER NOT NULL,
    PRIMARY KEY (merchant_id, mode)
);
